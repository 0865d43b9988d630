import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { AgentStatusService } from './agent-status.service.js';
import { AgentController } from './agent.controller.js';
import { ClaimService } from './claim.service.js';
import { JiraAuthRegistry } from './jira-auth.js';
import { Waiters } from './waiters.js';

@Module({
  imports: [QueueModule, SettingsModule],
  controllers: [AgentController],
  providers: [AgentStatusService, ClaimService, Waiters, JiraAuthRegistry],
  exports: [AgentStatusService],
})
export class AgentModule {}
