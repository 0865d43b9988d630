import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module.js';
import { BatchesController } from './batches.controller.js';
import { BatchesService } from './batches.service.js';
import { CommandsController } from './commands.controller.js';
import { DeliveryService } from './delivery.service.js';
import { QueueDepth } from './queue-depth.js';
import { QueueEvents } from './queue.events.js';

@Module({
  imports: [SettingsModule],
  controllers: [BatchesController, CommandsController],
  providers: [BatchesService, DeliveryService, QueueEvents, QueueDepth],
  exports: [DeliveryService, QueueEvents],
})
export class QueueModule {}
