import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AgentModule } from './agent/agent.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthGuard } from './common/auth.guard.js';
import { Clock } from './common/clock.js';
import { CommonModule } from './common/common.module.js';
import type { HubConfig } from './common/config.js';
import { ErrorFilter } from './common/error.filter.js';
import { dashboardModules } from './dashboard.js';
import { DatabaseModule } from './database/database.module.js';
import { EventsModule } from './events/events.module.js';
import { HealthController } from './health.controller.js';
import { ImportModule } from './import/import.module.js';
import { LiveModule } from './live/live.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MirrorModule } from './mirror/mirror.module.js';
import { PackagesModule } from './packages/packages.module.js';
import { QueueModule } from './queue/queue.module.js';
import { SettingsModule } from './settings/settings.module.js';

@Module({})
export class AppModule {
  static forRoot(config: HubConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CommonModule.forRoot(config, clock),
        MetricsModule,
        DatabaseModule,
        EventsModule,
        SettingsModule,
        QueueModule,
        MirrorModule,
        AgentModule,
        ImportModule,
        PackagesModule,
        LiveModule,
        McpModule,
        AuditModule,
        ...dashboardModules(),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
    };
  }
}
