import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { HUB_CONFIG, type HubConfig } from './config.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';

export type Role = 'client' | 'agent';
const PUBLIC = 'jira-hub:public';
const ROLE = 'jira-hub:role';

/** Marks a route that needs no token (/health). */
export const Public = () => SetMetadata(PUBLIC, true);

/**
 * Marks the agent's routes (`/agent/*`, SPEC 1, 11.1); every other route is the client's. The role
 * comes from the route's handler, never from the request path, whose letter case Express ignores.
 */
export const AgentRoute = () => SetMetadata(ROLE, 'agent' satisfies Role);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The caller's identity for `author` defaults: the role of a token, `api` in open mode. */
export function callerOf(req: Request): string {
  return (req as Request & { role?: Role }).role ?? 'api';
}

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const { clientToken, agentToken } = this.config;
    if (!clientToken || !agentToken) return true; // open mode: loopback only, enforced at boot
    const req = context.switchToHttp().getRequest<Request & { role?: Role }>();
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw new UnauthorizedError();
    const token = match[1].trim();
    const presented: Role | undefined = same(token, clientToken) ? 'client' : same(token, agentToken) ? 'agent' : undefined;
    if (!presented) throw new UnauthorizedError('токен не подошёл');
    const needed = this.reflector.getAllAndOverride<Role>(ROLE, [context.getHandler(), context.getClass()]) ?? 'client';
    if (presented !== needed) {
      throw new ForbiddenError(
        needed === 'agent' ? 'маршруты /agent/* доступны только с токеном агента' : 'этот маршрут доступен только с токеном клиента',
      );
    }
    req.role = presented;
    return true;
  }
}
