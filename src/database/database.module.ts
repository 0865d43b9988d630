import { Global, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HUB_CONFIG, type HubConfig } from '../common/index.js';
import { BackupService } from './backup.service.js';
import { dataSourceOptions, openDataSource } from './data-source.js';
import { Db } from './db.service.js';
import { migrate } from './migrate.js';
import { Notifier } from './notifier.js';
import { databaseFile } from './sqlite-copy.js';

/**
 * The data source, migrated before anything else can use it (SPEC 3.1: pending migrations run at
 * start-up), the serialized unit-of-work service `Db`, and backups.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [HUB_CONFIG],
      // One attempt: a database that cannot be opened or migrated will not get better by retrying.
      useFactory: (config: HubConfig) => ({ ...dataSourceOptions(config), retryAttempts: 1 }),
      dataSourceFactory: async (options) => {
        const ds = await openDataSource(options!);
        const logger = new Logger('Migrations');
        const file = options!.type === 'postgres' ? null : databaseFile(String(options!.database));
        const result = await migrate(ds, { file, logger }).catch(async (err) => {
          await ds.destroy();
          throw err;
        });
        logger.log(`schema version ${result.to}${result.applied.length ? ` (from ${result.from})` : ''}`);
        return ds;
      },
    }),
  ],
  providers: [Db, BackupService, Notifier],
  exports: [Db, BackupService, Notifier],
})
export class DatabaseModule {}
