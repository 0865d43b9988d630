/**
 * The hub's typed events (one bus, src/events/event-bus.ts). Each is published after the commit of the
 * transaction that made the change, and says what changed by ids; readers load what they show.
 */
export const BATCH_CHANGES = ['created', 'cancelled', 'approved', 'rejected', 'progress'] as const;
export type BatchChange = (typeof BATCH_CHANGES)[number];

/** `expired`: failed at the delivery limit; `skipped`: a temp key it needs was never created; `confirmed`: by state (SPEC 6.6). */
export const COMMAND_CHANGES = ['claimed', 'reported', 'cancelled', 'retried', 'expired', 'skipped', 'confirmed'] as const;
export type CommandChange = (typeof COMMAND_CHANGES)[number];

export interface BatchChanged {
  kind: 'batch';
  change: BatchChange;
  batch_id: number;
  /**
   * The batch's view as the transaction that made the change read it, when it did (create, retry,
   * cancel): a listener that shows the batch needs no read of its own. Opaque here (the bus knows no
   * module's types); it is Queue's BatchView.
   */
  view?: object;
}

export interface CommandChanged {
  kind: 'command';
  change: CommandChange;
  command_id: number;
  batch_id: number;
}

/** `claim`: the agent was seen (it claimed); `status`: its current command changed without a claim (a report, a cancel). */
export interface AgentChanged {
  kind: 'agent';
  change: 'claim' | 'status';
}

export interface SettingsChanged {
  kind: 'settings';
  version: number;
}

export type HubEvent = BatchChanged | CommandChanged | AgentChanged | SettingsChanged;
export type HubEventKind = HubEvent['kind'];
