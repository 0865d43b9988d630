import { Module } from '@nestjs/common';
import { SettingRepository } from './setting.repository.js';
import { SettingsController } from './settings.controller.js';
import { SettingsService } from './settings.service.js';

@Module({
  controllers: [SettingsController],
  providers: [SettingRepository, SettingsService],
  exports: [SettingRepository, SettingsService],
})
export class SettingsModule {}
