import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { LiveController } from './live.controller.js';
import { LiveService } from './live.service.js';

/** GET /events: the bus's events, as server-sent events for the dashboard. */
@Module({
  imports: [QueueModule, DeliveryModule],
  controllers: [LiveController],
  providers: [LiveService],
})
export class LiveModule {}
