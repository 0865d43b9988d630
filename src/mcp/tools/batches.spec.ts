import { describe, expect, it } from '@jest/globals';
import type { HubApi } from '../hub-api.js';
import { BATCH_TOOLS } from './batches.js';

const command = (seq: number) => ({ id: seq, batch_id: 3, seq, type: 'refresh', params: { keys: [`A-${seq}`] }, status: 'done', deliveries: 1, result: null });
const batch = { id: 3, title: 'П', author: 'assistant', source: 'assistant', created_at: '2026-12-01T10:00:00.000Z', status: 'done', estimate_seconds: 0, remaining_seconds: 0, counts: { done: 7 }, commands: [1, 2, 3, 4, 5, 6, 7].map(command) };
const api = { getBatch: async () => batch } as unknown as HubApi;
const page = (offset: number) => BATCH_TOOLS.find((t) => t.name === 'get_batch')!.run(api, { batch_id: 3, view: 'commands', offset, limit: 50 } as never, { canSubmit: true, dashboard: 'http://hub' });

describe('get_batch, view commands', () => {
  it('an offset past the last command says there is none there and where to start, not only how many there are', async () => {
    expect((await page(50)).text.split('\n').at(-1)).toBe('С offset 50 команд нет: их всего 7; начните с offset: 0.');
    expect((await page(5)).text.split('\n').at(-1)).toBe('Команд всего: 7.');
  });
});
