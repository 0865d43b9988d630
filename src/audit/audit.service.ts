import { Injectable } from '@nestjs/common';
import type { AuditToolCall } from '@jira-hub/contracts';
import { clip, Clock } from '../common/index.js';
import { Db } from '../database/index.js';
import { SettingsService } from '../settings/index.js';
import { AuditRepository, type AuditQuery, type AuditRecord, type AuditRow } from './audit.repository.js';

/** How much of a call's arguments (as JSON) the audit keeps. */
export const AUDIT_ARGUMENTS_CAP = 2_000;
export const AUDIT_DETAIL_CAP = 500;

/** Arguments as the audit stores them: JSON, cut to AUDIT_ARGUMENTS_CAP characters (never inside a surrogate pair: half an emoji is no text either engine stores). */
export function auditArguments(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value ?? {}) ?? '{}';
  } catch {
    json = '"(не JSON)"';
  }
  return clip(json, AUDIT_ARGUMENTS_CAP);
}

export type AuditEntry = Omit<AuditRow, 'at' | 'arguments'> & { arguments: unknown };


/** The audit of an AI assistant's calls (issue 22): recorded as they happen, kept per settings. */
@Injectable()
export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly repository: AuditRepository,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /** Records a call and drops the calls older than the retention (settings `audit_retention_days`), in one transaction. */
  record(entry: AuditEntry): Promise<void> {
    const now = this.clock.now();
    const keepFrom = new Date(now.getTime() - this.settings.get().audit_retention_days * 86_400_000).toISOString();
    const row: AuditRow = {
      ...entry,
      at: now.toISOString(),
      arguments: auditArguments(entry.arguments),
      detail: entry.detail === null ? null : clip(entry.detail, AUDIT_DETAIL_CAP),
    };
    return this.db.transaction(async (m) => {
      await this.repository.insert(m, row);
      await this.repository.deleteOlderThan(m, keepFrom);
    });
  }

  /**
   * An MCP tool call: `mcp` when the hub's own MCP endpoint served it (the hub saw it), `mcp_stdio` when the
   * `jira-hub mcp` process reports it over POST /audit (anyone with the assistant's token can, so the
   * dashboard shows it as reported).
   */
  recordToolCall(call: AuditToolCall, channel: 'mcp' | 'mcp_stdio'): Promise<void> {
    return this.record({ channel, tool: call.tool, route: null, arguments: call.arguments, outcome: call.outcome, status: null, detail: call.detail ?? null, batch_id: call.batch_id ?? null });
  }

  list(q: AuditQuery): Promise<AuditRecord[]> {
    return this.db.read((m) => this.repository.list(m, q));
  }
}
