import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HUB_CONFIG, type HubConfig } from '../common/index.js';
import { BackupService } from './backup.service.js';
import { dataSourceOptions, openMigrated } from './data-source.js';
import { Db } from './db.service.js';
import { Notifier } from './notifier.js';

/**
 * The data source, migrated before anything else can use it (SPEC 3.1: pending migrations run at
 * start-up), the serialized unit-of-work service `Db`, and backups.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [HUB_CONFIG],
      // One attempt, and no "Unable to connect … Retrying" logged with a stack: a database that cannot be
      // opened or migrated will not get better by retrying, and a refusal (ConfigError) is one line.
      useFactory: (config: HubConfig) => ({ ...dataSourceOptions(config), retryAttempts: 1, toRetry: () => false }),
      dataSourceFactory: async (options) => {
        const logger = new Logger('Migrations');
        const { ds, result } = await openMigrated(options!, logger);
        logger.log(`schema version ${result.to}${result.applied.length ? ` (from ${result.from})` : ''}`);
        return ds;
      },
    }),
  ],
  providers: [Db, BackupService, Notifier],
  exports: [Db, BackupService, Notifier],
})
export class DatabaseModule {}
