/** SPEC 15.4: Idempotency-Key on POST /batches — one batch per key and body, across races and restarts. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Db } from '../src/database/db.service.js';
import { fields, startHub, tempDir, TestClock, type TestHub } from './support/app.js';

describe('idempotent submit (SPEC 15.4)', () => {
  let dir: string;
  const hubs: TestHub[] = [];
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (clock = new TestClock()) => {
    const hub = await startHub({ HUB_DB_PATH: join(dir, 'hub.sqlite') }, clock);
    hubs.push(hub);
    return hub;
  };
  const body = { title: 'План', commands: [fields('A-1'), fields('A-2')] };
  const batchCount = async (hub: TestHub) => (await hub.app.get(Db).read((m) => m.query('SELECT count(*) AS n FROM batch')))[0].n;

  it('the same key and body answer the first batch (200, Idempotent-Replayed), also after a restart', async () => {
    const hub = await start();
    const first = await hub.http.post('/batches').set('Idempotency-Key', 'plan-42').send(body).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // the same body with its keys in another order is the same body
    const again = await hub.http.post('/batches').set('Idempotency-Key', 'plan-42').send({ commands: body.commands, title: 'План' }).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    await hubs.pop()!.close();
    const restarted = await start();
    const third = await restarted.http.post('/batches').set('Idempotency-Key', 'plan-42').send(body).expect(200);
    expect(third.body.id).toBe(first.body.id);
    expect(await batchCount(restarted)).toBe(1);
    // without a key, or with another key, a new batch
    await restarted.http.post('/batches').send(body).expect(201);
    await restarted.http.post('/batches').set('Idempotency-Key', 'plan-43').send(body).expect(201);
    expect(await batchCount(restarted)).toBe(3);
  });

  it('two racing requests with one key make one batch', async () => {
    const hub = await start();
    const answers = await Promise.all([1, 2, 3].map(() => hub.http.post('/batches').set('Idempotency-Key', 'race').send(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await batchCount(hub)).toBe(1);
  });

  it('the same key with another body → 422 idempotency_mismatch, nothing written', async () => {
    const hub = await start();
    const first = (await hub.http.post('/batches').set('Idempotency-Key', 'k').send(body).expect(201)).body;
    const res = await hub.http.post('/batches').set('Idempotency-Key', 'k').send({ ...body, title: 'Другой' }).expect(422);
    expect(res.body).toEqual({ error: 'idempotency_mismatch', detail: expect.stringContaining(`(пакет #${first.id})`) });
    expect(await batchCount(hub)).toBe(1);
  });

  it('a malformed key → 422 validation_failed, nothing written', async () => {
    const hub = await start();
    for (const key of ['', 'x'.repeat(201), 'two words']) {
      const res = await hub.http.post('/batches').set('Idempotency-Key', key).send(body).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'Idempotency-Key', detail: expect.any(String) }] });
    }
    expect(await batchCount(hub)).toBe(0);
  });

  it('a rejected body leaves its key unused; keys are kept 24 h, then purged', async () => {
    const clock = new TestClock();
    const hub = await start(clock);
    await hub.http.post('/batches').set('Idempotency-Key', 'k').send({ title: 't', commands: [fields('new:9')] }).expect(422);
    const first = (await hub.http.post('/batches').set('Idempotency-Key', 'k').send(body).expect(201)).body;
    clock.advance(24 * 3600_000 - 1000);
    expect((await hub.http.post('/batches').set('Idempotency-Key', 'k').send(body).expect(200)).body.id).toBe(first.id);
    clock.advance(2000);
    await hub.http.post('/batches').set('Idempotency-Key', 'other').send(body).expect(201); // purges the old key
    const fresh = (await hub.http.post('/batches').set('Idempotency-Key', 'k').send({ ...body, title: 'Новый' }).expect(201)).body;
    expect(fresh.id).not.toBe(first.id);
  });
});
