import { Module } from '@nestjs/common';
import { MirrorModule } from '../mirror/index.js';
import { CatalogueModule } from '../catalogue/index.js';
import { QueueModule } from '../queue/index.js';
import { SettingsModule } from '../settings/index.js';
import { ExportService } from './export.service.js';
import { PackageRepository } from './package.repository.js';
import { PackagesController } from './packages.controller.js';
import { PackagesService } from './packages.service.js';

/** Planning packages as the desired state (SPEC 18): plan, apply, drift, export. */
@Module({
  imports: [SettingsModule, QueueModule, CatalogueModule, MirrorModule],
  controllers: [PackagesController],
  providers: [PackageRepository, PackagesService, ExportService],
  exports: [PackageRepository, PackagesService, ExportService],
})
export class PackagesModule {}
