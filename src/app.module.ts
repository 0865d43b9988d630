import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuditModule } from './audit/audit.module.js';
import { AuthGuard } from './common/auth.guard.js';
import { Clock } from './common/clock.js';
import { CommonModule } from './common/common.module.js';
import type { HubConfig } from './common/config.js';
import { ErrorFilter } from './common/error.filter.js';
import { dashboardModules } from './dashboard.js';
import { DatabaseModule } from './database/database.module.js';
import { DeliveryLedgerAdapter } from './delivery/delivery-ledger.adapter.js';
import { DeliveryModule } from './delivery/delivery.module.js';
import { EventsModule } from './events/events.module.js';
import { HealthController } from './health.controller.js';
import { ImportModule } from './import/import.module.js';
import { LiveModule } from './live/live.module.js';
import { McpModule } from './mcp/mcp.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MirrorModule } from './mirror/mirror.module.js';
import { PackagesModule } from './packages/packages.module.js';
import { NOTE_KEYS } from './mirror/note-keys.js';
import { CommandRepository } from './queue/command.repository.js';
import { DELIVERY_LEDGER } from './queue/delivery-ledger.js';
import { QueueModule } from './queue/queue.module.js';
import { SettingsModule } from './settings/settings.module.js';

/**
 * The ports a lower module declares and a higher one implements (issue 21): wired here, above both, so no
 * module imports up the layers. Queue reaches the delivery history through Delivery's ledger (decision
 * 1000); Mirror finds where a temp key's note lives through Queue's temp-key lookup (decision 1001).
 */
@Global()
@Module({
  imports: [DeliveryModule, QueueModule],
  providers: [
    { provide: DELIVERY_LEDGER, useExisting: DeliveryLedgerAdapter },
    { provide: NOTE_KEYS, useExisting: CommandRepository },
  ],
  exports: [DELIVERY_LEDGER, NOTE_KEYS],
})
class PortsModule {}

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
        DeliveryModule,
        PortsModule,
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
