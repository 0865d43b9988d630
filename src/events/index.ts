/** The events module's public surface: what other modules import of it. */
export { EventBus } from './event-bus.js';
export type { AfterCommit } from './event-bus.js';
export { EventsModule } from './events.module.js';
export type { HubEvent } from './hub-events.js';
