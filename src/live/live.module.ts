import { Module } from '@nestjs/common';
import { AgentModule } from '../agent/agent.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { LiveController } from './live.controller.js';
import { LiveService } from './live.service.js';

/** GET /events: the bus's events, as server-sent events for the dashboard. */
@Module({
  imports: [QueueModule, AgentModule],
  controllers: [LiveController],
  providers: [LiveService],
})
export class LiveModule {}
