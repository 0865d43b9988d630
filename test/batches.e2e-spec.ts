import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { comment, fields, issue, startHub, type TestHub } from './support/app.js';

describe('POST /batches', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('scenario 1: tail refresh and estimate on default pacing', async () => {
    const res = await hub.http
      .post('/batches')
      .send({ title: 'Оценка', commands: [fields('A-1'), fields('A-2'), fields('A-1', { labels: ['x'] }), comment('A-3'), comment('A-1')] })
      .expect(201);
    expect(res.body.commands).toHaveLength(6);
    expect(res.body.commands.map((c: { seq: number }) => c.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(res.body.commands[5]).toMatchObject({ type: 'refresh', params: { keys: ['A-1', 'A-2', 'A-3'] }, status: 'queued', deliveries: 0 });
    expect(res.body.estimate_seconds).toBe(3 * 120 + 2 * 150 + 60);
    expect(res.body).toMatchObject({ title: 'Оценка', author: 'api', status: 'queued', cancelled_at: null });
    expect(res.body.counts.queued).toBe(6);
  });
});
