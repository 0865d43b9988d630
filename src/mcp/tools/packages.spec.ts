import { describe, expect, it } from '@jest/globals';
import type { HubApi } from '../hub-api.js';
import { PACKAGE_TOOLS } from './packages.js';

const pkg = { id: 3, name: 'Спринт 2', created_at: '2026-12-02T10:00:00.000Z', batch_id: 9, applied_from: null };
const drift = (batch_status: string) => ({
  package: pkg,
  fields: [{ key: 'A-2', jira_key: 'A-2', row: 2, field: 'duedate', wanted: '2026-12-01', actual: '2026-12-20' }],
  links: [],
  matches: false,
  batch_status,
  mirror: { missing_keys: [], gone_keys: [] },
});
const run = (batchStatus: string) =>
  PACKAGE_TOOLS.find((t) => t.name === 'package_drift')!.run({ packageDrift: async () => drift(batchStatus) } as unknown as HubApi, { id: 3 } as never, {
    canSubmit: true,
    dashboard: 'http://hub',
  });

describe('package_drift', () => {
  it.each(['done', 'cancelled'])('after a batch %s, offers the assistant its own way back (apply_package), not a folder for the CLI it has not', async (status) => {
    const { text } = await run(status);
    expect(text).toContain('apply_package с теми же файлами');
    expect(text).not.toContain('jira-hub apply');
  });
});
