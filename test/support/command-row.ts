/** A command row for service specs with mocked repositories: a queued ensure_fields unless `over` says otherwise, each with a new id. */
import type { CommandRow } from '../../src/queue/rows.js';

let ids = 0;

export function commandRow(over: Partial<CommandRow> = {}): CommandRow {
  ids += 1;
  return {
    id: ids,
    batch_id: 1,
    seq: ids,
    type: 'ensure_fields',
    params: JSON.stringify({ key: 'AURORA-1', duedate: '2026-12-20' }),
    status: 'queued',
    deliveries: 0,
    pause_seconds: null,
    claimed_at: null,
    finished_at: null,
    result: null,
    error: null,
    jira_calls: 0,
    rate_limited: 0,
    retry_of: null,
    queue_pos: 1,
    ...over,
  } as CommandRow;
}
