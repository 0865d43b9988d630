import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Db } from '../src/database/db.service.js';
import { run, sql } from '../src/database/sql.js';
import { agentOf, clientOf, fields, issue, refreshResult, startHub, tempDir, type TestHub } from './support/app.js';
import { reportCatalogue } from './support/catalogue.js';
import { createV1Database, insertBatch, insertCommand, insertNote } from './support/legacy.js';
import { onPostgres } from './support/pg.js';

describe('report, cancel, retry (SPEC 6.5, 6.7)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const batch = (commands: object[]) => clientOf(hub).batch(commands);
  const command = (id: number) => clientOf(hub).command(id);

  it('done stores result, jira_calls, rate_limited, finished_at; a repeated report changes nothing', async () => {
    await batch([fields('A-1')]);
    const c = (await agent.claim()).command;
    const res = await agent.report(c.id, { status: 'done', result: { changed: ['duedate'] }, jira_calls: 2, rate_limited: 1 }).expect(200);
    expect(res.body).toMatchObject({ id: c.id, status: 'done', result: { changed: ['duedate'] }, jira_calls: 2, rate_limited: 1, finished_at: hub.clock.iso() });
    hub.clock.advance(1000);
    const again = await agent.report(c.id, { status: 'failed', error: 'late' }).expect(200);
    expect(again.body).toEqual(res.body);
    expect((await hub.http.get('/agent')).body.rate_limited_24h).toBe(1);
  });

  it('scenario 7: a report for a command never handed out → 409 not_claimed, it stays queued', async () => {
    const b = await batch([fields('A-1')]);
    const res = await agent.report(b.commands[0].id, { status: 'done', result: {} }).expect(409);
    // a command's number written as everywhere else in the hub (decision 1490)
    expect(res.body).toEqual({ error: 'not_claimed', detail: `команда #${b.commands[0].id} ещё не выдана агенту` });
    expect((await command(b.commands[0].id)).status).toBe('queued');
    expect((await agent.report(99999, { status: 'done' }).expect(404)).body.detail).toBe('команды #99999 нет');
  });

  it('failed cuts the error to 1500 characters; no error → the fixed text', async () => {
    await batch([fields('A-1'), fields('A-2')]);
    const c = (await agent.claim()).command;
    const long = `HTTP 400: ${'ж'.repeat(2000)}`;
    expect((await agent.report(c.id, { status: 'failed', error: long }).expect(200)).body.error).toBe(long.slice(0, 1500));
    const d = (await agent.claim()).command;
    expect((await agent.report(d.id, { status: 'failed', error: '  ' }).expect(200)).body.error).toBe('агент не сообщил причину');
  });

  it('the cut counts characters, not UTF-16 units: an emoji at the 1500th character is kept whole', async () => {
    await batch([fields('A-1')]);
    const c = (await agent.claim()).command;
    const head = `${'a'.repeat(1499)}😀`;
    const stored = (await agent.report(c.id, { status: 'failed', error: `${head} и дальше` }).expect(200)).body.error;
    expect(stored).toBe(head);
    expect((await command(c.id)).error).toBe(head);
  });

  const badReports: [string, object][] = [
    ['unknown status', { status: 'ok' }],
    ['non-object result', { status: 'done', result: [1] }],
    ['string result', { status: 'done', result: 'fine' }],
    ['negative jira_calls', { status: 'done', jira_calls: -1 }],
    ['fractional rate_limited', { status: 'done', rate_limited: 0.5 }],
    ['unknown property', { status: 'done', colour: 'red' }],
  ];
  it.each(badReports)('%s → 422, nothing changed', async (_, body) => {
    await batch([fields('A-1')]);
    const c = (await agent.claim()).command;
    expect((await agent.report(c.id, body as Record<string, unknown>).expect(422)).body.error).toBe('validation_failed');
    expect(await command(c.id)).toMatchObject({ status: 'claimed', result: null });
  });

  it('a refresh done without issues, or an ensure_issue done without a key → 422, nothing changed', async () => {
    await batch([{ type: 'refresh', params: { keys: ['A-1'] } }]);
    const r = (await agent.claim()).command;
    await agent.report(r.id, { status: 'done', result: { links: [] } }).expect(422);
    await agent.report(r.id, { status: 'done', result: { issues: [{ key: 'bad key' }] } }).expect(422);
    // SPEC 4's Issue holds strings (duedate a date): anything else is refused naming the field, not stored as its JSON
    for (const [field, value, detail] of [
      ['summary', { a: 1 }, 'issues[0].summary: нужна строка или null'],
      ['status', ['x'], 'issues[0].status: нужна строка или null'],
      ['duedate', 5, 'issues[0].duedate: нужна строка или null'],
      ['duedate', '2026-02-30', 'issues[0].duedate: нужна дата ГГГГ-ММ-ДД или null, а пришло «2026-02-30»'],
    ] as const) {
      const res = await agent.report(r.id, { status: 'done', result: { issues: [{ key: 'A-1', [field]: value }], links: [] } }).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', detail });
    }
    expect((await hub.http.get('/issues/A-1')).status).toBe(404);
    expect((await command(r.id)).status).toBe('claimed');
    expect((await hub.http.get('/sync-runs')).body[0]).toMatchObject({ command_id: r.id, finished_at: null });
    await agent.done(r.id, refreshResult([{ key: 'A-1' }]));
    await batch([issue('new:1', 'X')]);
    const i = (await agent.claim()).command;
    await agent.report(i.id, { status: 'done', result: { created: true } }).expect(422);
    expect((await command(i.id)).status).toBe('claimed');
  });

  it('scenario 6: a lost ensure_issue report → re-delivered; done with the found key moves the note and feeds dependents', async () => {
    await hub.http.put('/notes/new:5').send({ fact_status: 'план', comment: 'важно' }).expect(200);
    const b = await batch([issue('new:5', 'Отчёт'), fields('new:5')]);
    const first = (await agent.claim()).command;
    const again = (await agent.claim()).command; // the report was lost; the agent claims again
    expect(again).toMatchObject({ id: first.id, deliveries: 2 });
    await agent.done(first.id, { key: 'A-20', created: false });
    const dep = (await agent.claim()).command;
    expect(dep).toMatchObject({ id: b.commands[1].id, params: { key: 'A-20' } });
    expect((await hub.http.get('/notes').expect(200)).body.map((n: { key: string }) => n.key)).toEqual(['A-20']); // moved, not copied
    expect((await hub.http.get('/notes/new:5').expect(200)).body.key).toBe('A-20'); // the temp key reads through to its issue
    expect((await hub.http.get('/notes/A-20').expect(200)).body).toMatchObject({ key: 'A-20', fact_status: 'план', comment: 'важно' });
  });

  it('a note already on the key wins field by field when the temp key note moves', async () => {
    await hub.http.put('/notes/new:1').send({ fact_status: 'из плана', comment: 'план' }).expect(200);
    await hub.http.put('/notes/A-7').send({ comment: 'своё' }).expect(200);
    await batch([issue('new:1', 'X')]);
    await agent.done((await agent.claim()).command.id, { key: 'A-7', created: false });
    expect((await hub.http.get('/notes/A-7')).body).toMatchObject({ fact_status: 'из плана', comment: 'своё' });
  });

  it('scenario 8: a force-cancelled ensure_issue keeps cancelled on a late done, stores the result once, moves the note', async () => {
    await hub.http.put('/notes/new:1').send({ comment: 'n' }).expect(200);
    await batch([issue('new:1', 'X')]);
    const c = (await agent.claim()).command;
    expect((await hub.http.post(`/commands/${c.id}/cancel`).send({}).expect(409)).body).toEqual({
      error: 'claimed',
      detail: `команда #${c.id} выдана агенту; отменить её можно только с force: true`,
    });
    const cancelled = (await hub.http.post(`/commands/${c.id}/cancel`).send({ force: true }).expect(200)).body;
    expect(cancelled).toMatchObject({ status: 'cancelled', finished_at: hub.clock.iso() });
    hub.clock.advance(60_000);
    const late = (await agent.report(c.id, { status: 'done', result: { key: 'A-20', created: true }, jira_calls: 3 }).expect(200)).body;
    expect(late).toMatchObject({ status: 'cancelled', finished_at: cancelled.finished_at, result: { key: 'A-20', created: true }, jira_calls: 3 });
    expect((await hub.http.get('/notes/A-20').expect(200)).body.comment).toBe('n');
    const second = (await agent.report(c.id, { status: 'done', result: { key: 'A-21', created: true } }).expect(200)).body;
    expect(second).toEqual(late);
    const failed = (await agent.report(c.id, { status: 'failed', error: 'x' }).expect(200)).body;
    expect(failed).toEqual(late);
    await hub.http.get('/notes/A-21').expect(404);
    expect((await hub.http.post(`/commands/${c.id}/cancel`).send({}).expect(409)).body).toEqual({ error: 'finished', detail: `команда #${c.id} уже завершена (статус cancelled)` });
  });

  it('a failed ensure_issue never resolves its temp key, even when its result names a key', async () => {
    const b = await batch([issue('new:1', 'X'), fields('new:1')]);
    const c = (await agent.claim()).command;
    await agent.report(c.id, { status: 'failed', error: 'HTTP 500: boom', result: { key: 'A-77' } }).expect(200);
    expect((await agent.claim()).command).toBeNull(); // the dependent and the tail refresh (only new:1) are skipped
    expect(await command(b.commands[1].id)).toMatchObject({ status: 'skipped', error: 'задача new:1 не создана' });
    expect(await command(b.commands[2].id)).toMatchObject({ type: 'refresh', status: 'skipped' });
    await hub.http.post('/batches').send({ title: 't', commands: [fields('new:1')] }).expect(422);
  });

  it('a late done for an ensure_issue cancelled before it was ever handed out changes nothing', async () => {
    await hub.http.put('/notes/new:4').send({ comment: 'n' }).expect(200);
    const b = await batch([issue('new:4', 'X')]);
    await hub.http.post(`/batches/${b.id}/cancel`).expect(200);
    const before = await command(b.commands[0].id);
    const after = (await agent.report(b.commands[0].id, { status: 'done', result: { key: 'A-66', created: true } }).expect(200)).body;
    expect(after).toEqual(before);
    await hub.http.get('/notes/new:4').expect(200);
    await hub.http.post('/batches').send({ title: 't', commands: [fields('new:4')] }).expect(422);
  });

  it('a late done of a force-cancelled ensure_issue whose deliveries were lost still stores its result', async () => {
    await hub.http.put('/notes/new:2').send({ comment: 'n' }).expect(200);
    await batch([issue('new:2', 'X')]);
    const c = (await agent.claim()).command;
    await hub.http.post(`/commands/${c.id}/cancel`).send({ force: true }).expect(200);
    // as a row claimed by an earlier hub and cancelled there: claimed_at set, no deliveries counted
    await hub.app.get(Db).transaction((m) => run(m, sql`UPDATE command SET deliveries = 0 WHERE id = ${c.id}`));
    const late = (await agent.report(c.id, { status: 'done', result: { key: 'A-22', created: true } }).expect(200)).body;
    expect(late).toMatchObject({ status: 'cancelled', deliveries: 0, result: { key: 'A-22', created: true } });
    expect((await hub.http.get('/notes/A-22').expect(200)).body.comment).toBe('n');
  });

  it('retry: failed/cancelled/skipped → new batch «Повтор команды #id» with retry_of; other statuses → 409', async () => {
    const b = await batch([fields('A-1'), fields('A-2')]);
    const c = (await agent.claim()).command;
    expect((await hub.http.post(`/commands/${c.id}/retry`).expect(409)).body.error).toBe('conflict'); // claimed
    await agent.report(c.id, { status: 'failed', error: 'HTTP 500: boom' }).expect(200);
    const retry = (await hub.http.post(`/commands/${c.id}/retry`).expect(201)).body;
    expect(retry).toMatchObject({ title: `Повтор команды #${c.id}`, status: 'queued', estimate_seconds: 180 });
    expect(retry.commands).toHaveLength(2);
    expect(retry.commands[0]).toMatchObject({ type: 'ensure_fields', params: { key: 'A-1', duedate: '2026-12-01' }, retry_of: c.id });
    expect(retry.commands[1]).toMatchObject({ type: 'refresh', params: { keys: ['A-1'] }, retry_of: null });
    expect((await command(c.id)).status).toBe('failed');
    const d = (await agent.claim()).command;
    await agent.done(d.id);
    expect((await hub.http.post(`/commands/${d.id}/retry`).expect(409)).body.error).toBe('conflict'); // done
    await hub.http.post(`/commands/${b.commands[2].id}/cancel`).send({}).expect(200);
    await hub.http.post(`/commands/${b.commands[2].id}/retry`).expect(201);
    await hub.http.post('/commands/99999/retry').expect(404);
  });
});

// SQLite only by nature: a v1 database is a file of an earlier hub.
(onPostgres ? describe.skip : describe)('late reports on a database of an earlier hub (SPEC 3.1, 6.5)', () => {
  let dir: string;
  let hub: TestHub | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a v1 ensure_issue force-cancelled after it was handed out takes a late done; one cancelled while queued does not', async () => {
    const file = join(dir, 'hub.sqlite');
    let handedOut = 0;
    let neverHandedOut = 0;
    createV1Database(file, (db) => {
      const b = insertBatch(db, { created_at: '2026-11-01T09:00:00.000Z', cancelled_at: '2026-11-01T09:10:00.000Z' });
      const cancelled = { status: 'cancelled', finished_at: '2026-11-01T09:10:00.000Z' };
      handedOut = insertCommand(db, {
        batch_id: b,
        seq: 1,
        type: 'ensure_issue',
        params: { temp_key: 'new:7', issue_type: 'Task', summary: 'X' },
        pause_seconds: 180,
        claimed_at: '2026-11-01T09:01:00.000Z',
        ...cancelled,
      });
      neverHandedOut = insertCommand(db, { batch_id: b, seq: 2, type: 'ensure_issue', params: { temp_key: 'new:8', issue_type: 'Task', summary: 'Y' }, ...cancelled });
      insertNote(db, { key: 'new:7', comment: 'семь' });
      insertNote(db, { key: 'new:8', comment: 'восемь' });
    });
    hub = await startHub({ HUB_DB_PATH: file });
    const agent = agentOf(hub);
    const late = (await agent.report(handedOut, { status: 'done', result: { key: 'A-70', created: true }, jira_calls: 2 }).expect(200)).body;
    expect(late).toMatchObject({ status: 'cancelled', finished_at: '2026-11-01T09:10:00.000Z', deliveries: 0, result: { key: 'A-70', created: true }, jira_calls: 2 });
    expect((await hub.http.get('/notes/A-70').expect(200)).body.comment).toBe('семь');
    const before = (await hub.http.get(`/commands/${neverHandedOut}`).expect(200)).body;
    expect((await agent.report(neverHandedOut, { status: 'done', result: { key: 'A-80', created: true } }).expect(200)).body).toEqual(before);
    expect(before).toMatchObject({ claimed_at: null, result: null });
    await hub.http.get('/notes/new:8').expect(200);
    await hub.http.get('/notes/A-80').expect(404);
  });
});

// SQLite only by nature: these count and rotate file copies in backups/. On PostgreSQL the hub copies
// nothing and logs the time of a batch's first write (postgres.e2e-spec.ts).
(onPostgres ? describe.skip : describe)('sync runs and backups (SPEC 3.2, 13 scenario 9)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  const backups = () => (existsSync(join(hub.dir, 'backups')) ? readdirSync(join(hub.dir, 'backups')).filter((n) => n !== '.owner').sort() : []); // the copies, not the folder's owner

  it('a re-delivered refresh keeps one sync run; a re-delivered first write keeps one backup', async () => {
    const b = await (await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] })).body;
    const c = (await agent.claim()).command;
    expect(backups()).toEqual([`20261130-100000-batch-${b.id}.sqlite`]);
    hub.clock.advance(1000);
    await agent.claim();
    expect(backups()).toHaveLength(1);
    await agent.done(c.id);
    const r = (await agent.claim()).command;
    await agent.claim();
    await agent.claim();
    const runs = (await hub.http.get('/sync-runs').expect(200)).body;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ command_id: r.id, kind: 'keys', query: 'A-1', finished_at: null });
    await agent.done(r.id, refreshResult([]));
    expect((await hub.http.get('/sync-runs')).body[0]).toMatchObject({ issues: 0, links: 0, missing: ['A-1'], finished_at: hub.clock.iso() });
    expect(backups()).toHaveLength(1);
  });

  it('a refresh-only batch and a catalogue read make no backup; rotation keeps the newest backup_keep copies', async () => {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] });
    await agent.done((await agent.claim()).command.id, refreshResult([]));
    expect(backups()).toEqual([]);
    await reportCatalogue(hub); // refresh_catalogue reads Jira: no copy, and none pushed out of backup_keep
    expect(backups()).toEqual([]);
    await hub.http.patch('/settings').send({ backup_keep: 2 }).expect(200);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] })).body.id);
      hub.clock.advance(1000);
      for (let k = 0; k < 2; k++) {
        const c = (await agent.claim()).command;
        await agent.done(c.id, c.type === 'refresh' ? refreshResult([]) : {});
      }
    }
    expect(backups()).toEqual([`20261130-100002-batch-${ids[1]}.sqlite`, `20261130-100003-batch-${ids[2]}.sqlite`]);
  });

  it('a failed backup is a warning in GET /agent and does not stop the queue', async () => {
    mkdirSync(join(hub.dir, 'backups'));
    chmodSync(join(hub.dir, 'backups'), 0o500);
    try {
      if (process.getuid?.() === 0) {
        // root ignores directory permissions: make the target name a directory instead, in a folder this database owns
        chmodSync(join(hub.dir, 'backups'), 0o700);
        writeFileSync(join(hub.dir, 'backups', '.owner'), 'hub.sqlite\n');
        mkdirSync(join(hub.dir, 'backups', '20261130-100000-batch-1.sqlite'));
      }
      await hub.http.post('/batches').send({ title: 't', commands: [fields('A-1')] });
      const c = (await agent.claim()).command;
      expect(c).toMatchObject({ type: 'ensure_fields' });
      const status = (await hub.http.get('/agent')).body;
      expect(status.warning).toContain('резервную копию');
    } finally {
      chmodSync(join(hub.dir, 'backups'), 0o700);
    }
  });
});
