import { describe, expect, it } from '@jest/globals';
import type { HubEvent } from '../events/index.js';
import type { Response } from 'express';
import { HubStoppingError } from '../common/index.js';
import { broadcastParts, LiveService } from './live.service.js';

describe('broadcastParts (events for the other replicas)', () => {
  it('sends ids only: the view a transaction read stays here', () => {
    const events: HubEvent[] = [
      { kind: 'batch', change: 'created', batch_id: 7, view: { id: 7, commands: [] } },
      { kind: 'command', change: 'claimed', command_id: 3, batch_id: 7 },
    ];
    expect(broadcastParts(events).map((p) => JSON.parse(p))).toEqual([
      [
        { kind: 'batch', change: 'created', batch_id: 7 },
        { kind: 'command', change: 'claimed', command_id: 3, batch_id: 7 },
      ],
    ]);
  });

  it('splits into parts under the byte limit, in order, losing none', () => {
    const events: HubEvent[] = Array.from({ length: 500 }, (_, i) => ({ kind: 'command', change: 'reported', command_id: i, batch_id: 1 }));
    const parts = broadcastParts(events, 1000);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(1000);
    expect(parts.flatMap((p) => JSON.parse(p) as HubEvent[])).toEqual(events);
  });

  it('nothing to send → no part', () => {
    expect(broadcastParts([])).toEqual([]);
  });
});

describe('LiveService.open during a stop (decision 1429)', () => {
  const service = () => new LiveService({} as never, {} as never, {} as never, {} as never, { eventsHeartbeatSeconds: 15 } as never, {} as never);
  const response = () => {
    const written: string[] = [];
    const res = { status: () => res, set: () => res, flushHeaders: () => undefined, write: (s: string) => written.push(s), on: () => res, end: () => undefined };
    return { res: res as unknown as Response, written };
  };

  it('opens a stream before the stop, and refuses one (503 unavailable) once the streams have ended', () => {
    const live = service();
    const before = response();
    live.open(before.res);
    expect(live.size).toBe(1);
    expect(before.written.join('')).toContain('event: hello');
    live.beforeApplicationShutdown();
    expect(live.size).toBe(0);
    const after = response();
    expect(() => live.open(after.res)).toThrow(HubStoppingError);
    expect(after.written).toEqual([]);
    expect(live.size).toBe(0);
  });
});
