import { Module } from '@nestjs/common';
import { MirrorModule } from '../mirror/index.js';
import { CatalogueModule } from '../catalogue/index.js';
import { SettingsModule } from '../settings/index.js';
import { BatchRepository } from './batch.repository.js';
import { BatchViews } from './batch-views.js';
import { BatchesController } from './batches.controller.js';
import { BatchesService } from './batches.service.js';
import { CatalogueRefreshController } from './catalogue-refresh.controller.js';
import { CatalogueRefreshService } from './catalogue-refresh.service.js';
import { CatalogueRefreshes } from './catalogue-refreshes.js';
import { ChangeRepository } from './change.repository.js';
import { ChangesService } from './changes.service.js';
import { CommandRepository } from './command.repository.js';
import { CommandsController } from './commands.controller.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IssueChangesController } from './issue-changes.controller.js';
import { OverviewService } from './overview.service.js';
import { PlanService } from './plan.service.js';
import { QueueDepth } from './queue-depth.js';
import { RevertService } from './revert.service.js';

/**
 * Batches and commands for clients (SPEC 5, 6.7, 6.8, 15, 17). The delivery history and the agent's
 * current command are reached through the `DELIVERY_LEDGER` port (delivery-ledger.ts), wired in AppModule.
 */
@Module({
  imports: [SettingsModule, CatalogueModule, MirrorModule],
  controllers: [BatchesController, CommandsController, CatalogueRefreshController, IssueChangesController],
  providers: [
    BatchesService,
    ChangesService,
    PlanService,
    QueueDepth,
    CatalogueRefreshService,
    OverviewService,
    RevertService,
    BatchViews,
    CatalogueRefreshes,
    BatchRepository,
    CommandRepository,
    IdempotencyRepository,
    ChangeRepository,
  ],
  exports: [BatchesService, PlanService, RevertService, BatchViews, CatalogueRefreshes, BatchRepository, CommandRepository, IdempotencyRepository, ChangeRepository],
})
export class QueueModule {}
