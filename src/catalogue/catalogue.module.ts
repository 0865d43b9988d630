import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/index.js';
import { CatalogueController } from './catalogue.controller.js';
import { CatalogueRepository } from './catalogue.repository.js';
import { CatalogueService } from './catalogue.service.js';
import { CatalogueSettingsCheck } from './settings-check.js';

/**
 * The catalogue of Jira's configuration (SPEC 16): its table and repository (used inside Queue's
 * transactions), the checks of a plan (checks.ts, pure) and the lookups. Below Queue: the refresh that
 * fills it is a command, queued by Queue (POST /catalogue/refresh lives there).
 */
@Module({
  imports: [SettingsModule],
  controllers: [CatalogueController],
  providers: [CatalogueRepository, CatalogueService, CatalogueSettingsCheck],
  exports: [CatalogueRepository, CatalogueService, CatalogueSettingsCheck],
})
export class CatalogueModule {}
