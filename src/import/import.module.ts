import { Module } from '@nestjs/common';
import { MirrorModule } from '../mirror/mirror.module.js';
import { QueueModule } from '../queue/queue.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { ImportController } from './import.controller.js';
import { ImportService } from './import.service.js';

@Module({
  imports: [SettingsModule, QueueModule, MirrorModule],
  controllers: [ImportController],
  providers: [ImportService],
  exports: [ImportService],
})
export class ImportModule {}
