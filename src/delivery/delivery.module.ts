import { Module } from '@nestjs/common';
import { MirrorModule } from '../mirror/index.js';
import { CatalogueModule } from '../catalogue/index.js';
import { QueueModule } from '../queue/index.js';
import { SettingsModule } from '../settings/index.js';
import { AgentStatusRepository } from './agent-status.repository.js';
import { AgentStatusService } from './agent-status.service.js';
import { AgentController } from './agent.controller.js';
import { ClaimRules } from './claim-rules.js';
import { DeliveryLedgerAdapter } from './delivery-ledger.adapter.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliveryService } from './delivery.service.js';
import { JiraAuthRegistry } from './jira-auth.js';
import { ReportRules } from './report-rules.js';
import { ClaimService, Waiters } from './claim.service.js';

/**
 * The agent's side (SPEC 6.2–6.6, 10, 15.3, 16.3): claim with the long poll, report, the merged call,
 * the delivery history and the agent's status. It sits above Queue and calls Queue's repositories inside
 * its transactions; Queue reaches the history through the ledger port (DeliveryLedgerAdapter, wired in AppModule).
 */
@Module({
  imports: [QueueModule, SettingsModule, CatalogueModule, MirrorModule],
  controllers: [AgentController],
  providers: [
    AgentStatusService,
    ClaimService,
    DeliveryService,
    ClaimRules,
    ReportRules,
    Waiters,
    JiraAuthRegistry,
    DeliveryRepository,
    AgentStatusRepository,
    DeliveryLedgerAdapter,
  ],
  exports: [AgentStatusService, DeliveryService, DeliveryRepository, AgentStatusRepository, DeliveryLedgerAdapter],
})
export class DeliveryModule {}
