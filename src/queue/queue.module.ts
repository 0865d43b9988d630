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
import { RevertService } from './revert.service.js';
import { ChangesService } from './changes.service.js';
import { IssueChangesController } from './issue-changes.controller.js';

@Module({
  imports: [SettingsModule, CatalogueModule],
  controllers: [BatchesController, CommandsController, CatalogueRefreshController, IssueChangesController],
  providers: [BatchesService, ChangesService, DeliveryService, PlanService, QueueDepth, CatalogueRefreshService, OverviewService, RevertService],
  exports: [BatchesService, DeliveryService, PlanService, RevertService],
})
export class QueueModule {}
