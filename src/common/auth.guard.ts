import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { HUB_CONFIG, type HubConfig } from './config.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';
import { clip } from './text.js';

/** SPEC 15.1: who calls. A person (or a tool acting for one), the agent, or an AI assistant. */
export type Role = 'client' | 'agent' | 'assistant';
/** Where a batch comes from (SPEC 15.1): the two callers that submit, and the hub's own auto-refresh. */
export type BatchSource = 'client' | 'assistant' | 'hub';
export const BATCH_SOURCES: readonly BatchSource[] = ['client', 'assistant', 'hub'];

const PUBLIC = 'jira-hub:public';
const ROLES = 'jira-hub:roles';
/** The header by which a request declares itself the assistant's (SPEC 15.1); the MCP server always sends it. */
export const SOURCE_HEADER = 'x-hub-source';

/** Marks a route that needs no token (/health). */
export const Public = () => SetMetadata(PUBLIC, true);

/** The OpenAPI bearer schemes of the roles (docs.ts names each scheme after its role). */
const bearerAuth = (roles: readonly Role[]): MethodDecorator => (target, key, descriptor) => {
  for (const role of roles) ApiBearerAuth(role)(target, key, descriptor);
};

/**
 * The roles a route (handler or controller) admits, and the bearer schemes its OpenAPI operation lists.
 * The role comes from the route's metadata, never from the request path, whose letter case Express
 * ignores. A route without it admits the client only. On a controller it documents each route that
 * names no roles of its own, as the guard reads them (swagger would add a controller's schemes to a
 * route's own).
 */
export function Roles(...roles: Role[]): ClassDecorator & MethodDecorator {
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      SetMetadata(ROLES, roles)(target, key!, descriptor);
      bearerAuth(roles)(target, key!, descriptor);
      return descriptor;
    }
    SetMetadata(ROLES, roles)(target as Function);
    // Route decorators ran before this one: a handler with its own roles or @Public() keeps its own.
    const proto = (target as Function).prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const route = Object.getOwnPropertyDescriptor(proto, name)!;
      if (name === 'constructor' || typeof route.value !== 'function' || Reflect.hasMetadata(ROLES, route.value) || Reflect.hasMetadata(PUBLIC, route.value)) continue;
      bearerAuth(roles)(proto, name, route);
    }
  }) as ClassDecorator & MethodDecorator;
}
/** The agent's routes (`/agent/*`, SPEC 1, 11.1). */
export const AgentRoute = () => Roles('agent');
/** What a client and the assistant both may do (SPEC 15.1): read, plan, submit, cancel, retry, notes. */
export const AssistantToo = () => Roles('client', 'assistant');

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

type WithRole = Request & { role?: Role };

/** The caller's identity for `author` and `approved_by` defaults: the role of a token, `api` in open mode. */
export function callerOf(req: Request): string {
  return (req as WithRole).role ?? 'api';
}

/** The caller's role (undefined: open mode without `X-Hub-Source: assistant`, a person). */
export function roleOf(req: Request): Role | undefined {
  return (req as WithRole).role;
}

/** The source a batch the caller submits gets (SPEC 15.1). */
export function sourceOf(req: Request): BatchSource {
  return roleOf(req) === 'assistant' ? 'assistant' : 'client';
}

/** Who asks: the name for `author` / `approved_by` defaults, and the source of the batches they submit (SPEC 15.1). */
export interface Caller {
  name: string;
  source: BatchSource;
}

export const callerFrom = (req: Request): Caller => ({ name: callerOf(req), source: sourceOf(req) });

/**
 * The header only ever lowers rights: any of its values naming the assistant counts, so a header sent
 * twice (Node joins the values with «, ») or listing several values still makes the request the assistant's.
 */
function declaresAssistant(req: Request): boolean {
  const header = req.headers[SOURCE_HEADER];
  return typeof header === 'string' && header.split(',').some((value) => value.trim().toLowerCase() === 'assistant');
}

function refusal(allowed: readonly Role[], presented: Role, req: Request): ForbiddenError {
  if (allowed.includes('agent')) return new ForbiddenError('маршруты /agent/* доступны только с токеном агента');
  if (presented === 'assistant') {
    // Names the route: the client-only routes range from approvals and settings to reading the audit log.
    return new ForbiddenError(`ассистенту недоступно ${req.method} ${clip(req.path, 100)}: это может только человек (с токеном клиента)`);
  }
  const tokens = (['client', 'assistant'] as const).filter((r) => allowed.includes(r)).map((r) => (r === 'client' ? 'клиента' : 'ассистента'));
  return new ForbiddenError(`этот маршрут доступен только с токеном ${tokens.join(' или ') || 'клиента'}`);
}

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    const allowed = this.reflector.getAllAndOverride<Role[]>(ROLES, targets) ?? ['client'];
    const req = context.switchToHttp().getRequest<WithRole>();
    const role = this.roleOf(req);
    // Set before the check: a refused call is still the caller's (the audit records an assistant's).
    req.role = role;
    // Open mode without the header: a person on loopback, every route open (SPEC 11.1).
    if (role && !allowed.includes(role)) throw refusal(allowed, role, req);
    return true;
  }

  /**
   * The role of the request: its token's; in open mode (no tokens, loopback only) the assistant's when
   * it says so, else none. A client token that declares itself the assistant's gets the assistant's role
   * (a voluntary step down, so approval applies to what the MCP server submits with any token); the
   * header never raises a role.
   */
  private roleOf(req: Request): Role | undefined {
    const { clientToken, agentToken, assistantToken } = this.config;
    if (!clientToken || !agentToken) return declaresAssistant(req) ? 'assistant' : undefined;
    const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new UnauthorizedError();
    const token = match[1].trim();
    const presented: Role | undefined = same(token, clientToken)
      ? 'client'
      : same(token, agentToken)
        ? 'agent'
        : assistantToken && same(token, assistantToken)
          ? 'assistant'
          : undefined;
    if (!presented) throw new UnauthorizedError('токен не подошёл');
    return presented === 'client' && declaresAssistant(req) ? 'assistant' : presented;
  }
}
