import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { ImportController } from './import.controller.js';
import { ImportService } from './import.service.js';

@Module({
  imports: [SettingsModule, QueueModule],
  controllers: [ImportController],
  providers: [ImportService],
  exports: [ImportService],
})
export class ImportModule {}
