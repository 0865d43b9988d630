import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuditModule } from './audit/index.js';
import { AuthGuard, Clock, CommonModule, ErrorFilter } from './common/index.js';
import { CatalogueModule, CatalogueSettingsCheck } from './catalogue/index.js';
import type { HubConfig } from './common/index.js';
import { dashboardModules } from './dashboard.js';
import { DatabaseModule } from './database/index.js';
import { DeliveryLedgerAdapter, DeliveryModule } from './delivery/index.js';
import { EventsModule } from './events/index.js';
import { HealthController } from './health.controller.js';
import { ImportModule } from './import/index.js';
import { LiveModule } from './live/index.js';
import { McpModule } from './mcp/index.js';
import { MetricsModule } from './metrics/index.js';
import { MirrorModule, NOTE_KEYS } from './mirror/index.js';
import { PackagesModule } from './packages/index.js';
import { CommandRepository, DELIVERY_LEDGER, QueueModule } from './queue/index.js';
import { SETTINGS_CHECK, SettingsModule } from './settings/index.js';

/**
 * The ports a lower module declares and a higher one implements (issue 21): wired here, above both, so no
 * module imports up the layers. Queue reaches the delivery history through Delivery's ledger (decision
 * 1000); Mirror finds where a temp key's note lives through Queue's temp-key lookup (decision 1001);
 * Settings checks the link types and fields of a change against Catalogue's view of Jira (decision 1425).
 */
@Global()
@Module({
  imports: [DeliveryModule, QueueModule, CatalogueModule],
  providers: [
    { provide: DELIVERY_LEDGER, useExisting: DeliveryLedgerAdapter },
    { provide: NOTE_KEYS, useExisting: CommandRepository },
    { provide: SETTINGS_CHECK, useExisting: CatalogueSettingsCheck },
  ],
  exports: [DELIVERY_LEDGER, NOTE_KEYS, SETTINGS_CHECK],
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
