import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module.js';
import { BatchesController } from './batches.controller.js';
import { BatchesService } from './batches.service.js';
import { CommandsController } from './commands.controller.js';
import { DeliveryService } from './delivery.service.js';
import { PlanService } from './plan.service.js';
import { QueueDepth } from './queue-depth.js';

@Module({
  imports: [SettingsModule],
  controllers: [BatchesController, CommandsController],
  providers: [BatchesService, DeliveryService, PlanService, QueueDepth],
  exports: [BatchesService, DeliveryService, PlanService],
})
export class QueueModule {}
