import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/index.js';
import { MirrorModule } from '../mirror/index.js';
import { QueueModule } from '../queue/index.js';
import { SettingsModule } from '../settings/index.js';
import { ImportController } from './import.controller.js';
import { ImportService } from './import.service.js';

@Module({
  imports: [SettingsModule, QueueModule, CatalogueModule, MirrorModule],
  controllers: [ImportController],
  providers: [ImportService],
  exports: [ImportService],
})
export class ImportModule {}
