import { afterEach, describe, expect, it } from '@jest/globals';
import { agentOf, fields, refreshResult, startHub, type TestHub } from './support/app.js';
import { openEvents, type SseMessage, type SseStream } from './support/sse.js';

const TOKENS = { HUB_CLIENT_TOKEN: 'client-secret', HUB_AGENT_TOKEN: 'agent-secret', HUB_ASSISTANT_TOKEN: 'assistant-secret' };
const data = (m: SseMessage) => m.data as Record<string, any>;

describe('GET /events (SPEC 15.4): server-sent events after each commit', () => {
  let hub: TestHub;
  let stream: SseStream | undefined;
  afterEach(async () => {
    stream?.close();
    stream = undefined;
    await hub.close();
  });

  it('sends batch, command, agent and settings changes with what a page needs', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    stream = await openEvents(hub);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.next((m) => m.event === 'hello');

    const batch = (await hub.http.post('/batches').send({ title: 'План', commands: [fields('A-1')] }).expect(201)).body;
    const created = await stream.next((m) => m.event === 'batch' && data(m).change === 'created');
    expect(created.data).toMatchObject({ batch_id: batch.id, batch: { id: batch.id, title: 'План', status: 'queued', counts: { queued: 2 } } });
    expect(data(created).batch.commands).toBeUndefined();

    const { command } = await agent.claim();
    const claimed = await stream.next((m) => m.event === 'command' && data(m).change === 'claimed');
    expect(claimed.data).toMatchObject({ command_id: command.id, batch_id: batch.id, command: { id: command.id, status: 'claimed' }, batch: { status: 'running' } });
    const seen = await stream.next((m) => m.event === 'agent' && data(m).change === 'claim');
    expect(data(seen).agent).toMatchObject({ online: true, current_command_id: command.id });

    const from = stream.messages.length;
    await agent.done(command.id);
    const reported = await stream.next((m) => m.event === 'command' && data(m).change === 'reported', from);
    expect(reported.data).toMatchObject({ command: { id: command.id, status: 'done' }, batch: { counts: { done: 1, queued: 1 } } });
    await stream.next((m) => m.event === 'batch' && data(m).change === 'progress', from);

    await hub.http.post(`/batches/${batch.id}/cancel`).expect(200);
    const cancelled = await stream.next((m) => m.event === 'batch' && data(m).change === 'cancelled');
    expect(data(cancelled).batch).toMatchObject({ id: batch.id, status: 'cancelled' });

    await hub.http.patch('/settings').send({ pacing: { ensure_fields: 5 } }).expect(200);
    expect((await stream.next((m) => m.event === 'settings')).data).toEqual({ version: 2 });
    const ids = stream.messages.filter((m) => m.id).map((m) => Number(m.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('a refused change publishes nothing', async () => {
    hub = await startHub();
    const agent = agentOf(hub);
    stream = await openEvents(hub);
    await stream.next((m) => m.event === 'hello');
    await hub.http.post('/batches').send({ title: 'x', commands: [{ type: 'refresh', params: { keys: ['A-1'] } }] }).expect(201);
    const { command } = await agent.claim();
    await stream.next((m) => m.event === 'command' && data(m).change === 'claimed');
    const from = stream.messages.length;
    await agent.report(command.id, { status: 'done', result: { issues: 'no' } }).expect(422);
    await hub.http.post('/commands/999/cancel').expect(404);
    // A later change arrives, and nothing came before it.
    await hub.http.patch('/settings').send({ pacing: { refresh: 1 } }).expect(200);
    await stream.next((m) => m.event === 'settings', from);
    expect(stream.messages.slice(from).map((m) => m.event)).toEqual(['settings']);
    await agent.done(command.id, refreshResult([{ key: 'A-1' }]));
    await stream.next((m) => m.event === 'command' && data(m).change === 'reported', from);
  });

  it('sends approvals and rejections of waiting batches (SPEC 15.2)', async () => {
    hub = await startHub();
    stream = await openEvents(hub);
    await stream.next((m) => m.event === 'hello');
    const submit = async () =>
      (await hub.http.post('/batches').set('X-Hub-Source', 'assistant').send({ title: 'План', commands: [fields('A-1')] }).expect(201)).body;
    const [a, b] = [await submit(), await submit()];
    const created = await stream.next((m) => m.event === 'batch' && data(m).batch_id === a.id);
    expect(data(created).batch).toMatchObject({ status: 'awaiting_approval', source: 'assistant' });
    await hub.http.post(`/batches/${a.id}/approve`).expect(200);
    const approved = await stream.next((m) => m.event === 'batch' && data(m).change === 'approved');
    expect(data(approved).batch).toMatchObject({ id: a.id, status: 'queued', approved_by: 'api' });
    await hub.http.post(`/batches/${b.id}/reject`).send({ reason: 'не нужно' }).expect(200);
    const rejected = await stream.next((m) => m.event === 'batch' && data(m).change === 'rejected');
    expect(data(rejected).batch).toMatchObject({ id: b.id, status: 'cancelled', rejected_reason: 'не нужно' });
  });

  it('sends heartbeats', async () => {
    hub = await startHub({ HUB_EVENTS_HEARTBEAT_SECONDS: '1' });
    stream = await openEvents(hub);
    const beat = await stream.next((m) => m.event === 'comment');
    expect(beat.comment).toMatch(/^heartbeat /);
  });

  it('takes the client token only', async () => {
    hub = await startHub(TOKENS);
    const none = await openEvents(hub);
    expect(none.status).toBe(401);
    const agentToken = await openEvents(hub, { authorization: 'Bearer agent-secret' });
    expect(agentToken.status).toBe(403);
    const assistantToken = await openEvents(hub, { authorization: 'Bearer assistant-secret' });
    expect(assistantToken.status).toBe(403);
    stream = await openEvents(hub, { authorization: 'Bearer client-secret' });
    expect(stream.status).toBe(200);
    await stream.next((m) => m.event === 'hello');
  });
});
