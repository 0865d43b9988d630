import { describe, expect, it } from '@jest/globals';
import type { HubEvent } from '../events/index.js';
import { broadcastParts } from './live.service.js';

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
