import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/index.js';
import { QueueModule } from '../queue/index.js';
import { LiveController } from './live.controller.js';
import { LiveService } from './live.service.js';

/** GET /events: the bus's events, as server-sent events for the dashboard. */
@Module({
  imports: [QueueModule, DeliveryModule],
  controllers: [LiveController],
  providers: [LiveService],
})
export class LiveModule {}
