/** The agent's path stays lean (issue 9, item 6): Express hashes no ETag and names no framework. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { agentOf, fields, startHub, type TestHub } from './support/app.js';

describe('answers without ETag and X-Powered-By', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('on the claim, the report and a read', async () => {
    await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] }).expect(201);
    const claim = await hub.http.post('/agent/claim').send({}).expect(200);
    const report = await agentOf(hub).report(claim.body.command.id, { status: 'done', result: {} }).expect(200);
    const read = await hub.http.get('/batches').expect(200);
    for (const res of [claim, report, read]) {
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
