import { describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { EventBus } from './event-bus.js';
import type { HubEvent } from './hub-events.js';

function fakeTx() {
  const callbacks: (() => void)[] = [];
  return { tx: { afterCommit: (cb: () => void) => callbacks.push(cb) }, commit: () => callbacks.forEach((cb) => cb()) };
}

describe('EventBus', () => {
  it('publishes to every subscriber until it unsubscribes', () => {
    const bus = new EventBus();
    const a: HubEvent[] = [];
    const b: HubEvent[] = [];
    const stopA = bus.subscribe((e) => a.push(e));
    bus.subscribe((e) => b.push(e));
    bus.publish({ kind: 'settings', version: 2 });
    stopA();
    bus.publish({ kind: 'agent', change: 'claim' });
    expect(a).toEqual([{ kind: 'settings', version: 2 }]);
    expect(b).toEqual([{ kind: 'settings', version: 2 }, { kind: 'agent', change: 'claim' }]);
    expect(bus.size).toBe(1);
  });

  it('publishes nothing before the commit, and what the function says at the commit', () => {
    const bus = new EventBus();
    const seen: HubEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const { tx, commit } = fakeTx();
    let id = 0;
    bus.afterCommit(tx, () => [{ kind: 'batch', change: 'created', batch_id: id }]);
    id = 7;
    expect(seen).toEqual([]);
    commit();
    expect(seen).toEqual([{ kind: 'batch', change: 'created', batch_id: 7 }]);
  });

  it('a throwing listener does not keep the others from hearing', () => {
    Logger.overrideLogger(false);
    const bus = new EventBus();
    const seen: HubEvent[] = [];
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe((e) => seen.push(e));
    bus.publish({ kind: 'agent', change: 'status' });
    expect(seen).toHaveLength(1);
  });
});
