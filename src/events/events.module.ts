import { Global, Module } from '@nestjs/common';
import { EventBus } from './event-bus.js';

/** The event bus, global: any module publishes or listens without importing this one. It depends on nothing. */
@Global()
@Module({
  providers: [EventBus],
  exports: [EventBus],
})
export class EventsModule {}
