import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { BatchesController } from './batches.controller.js';
import { BatchesService } from './batches.service.js';
import { CatalogueRefreshController } from './catalogue-refresh.controller.js';
import { CatalogueRefreshService } from './catalogue-refresh.service.js';
import { CommandsController } from './commands.controller.js';
import { DeliveryService } from './delivery.service.js';
import { PlanService } from './plan.service.js';
import { QueueDepth } from './queue-depth.js';
import { OverviewService } from './overview.service.js';

@Module({
  imports: [SettingsModule, CatalogueModule],
  controllers: [BatchesController, CommandsController, CatalogueRefreshController],
  providers: [BatchesService, DeliveryService, PlanService, QueueDepth, CatalogueRefreshService, OverviewService],
  exports: [BatchesService, DeliveryService, PlanService],
})
export class QueueModule {}
