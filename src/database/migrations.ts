import type { MigrationInterface } from 'typeorm';
import { SchemaV11760000000000 } from '../../migrations/1760000000000-SchemaV1.js';
import { CommandDeliveries1764460800000 } from '../../migrations/1764460800000-CommandDeliveries.js';
import { ApprovalHistory1764547200000 } from '../../migrations/1764547200000-ApprovalHistory.js';
import { MirrorSearch1764633600000 } from '../../migrations/1764633600000-MirrorSearch.js';
import { QueueLoad1764720000000 } from '../../migrations/1764720000000-QueueLoad.js';
import { JiraCatalogue1764806400000 } from '../../migrations/1764806400000-JiraCatalogue.js';
import { AssistantAudit1764892800000 } from '../../migrations/1764892800000-AssistantAudit.js';
import { ChangeRecord1764979200000 } from '../../migrations/1764979200000-ChangeRecord.js';
import { PlanningPackages1765065600000 } from '../../migrations/1765065600000-PlanningPackages.js';
import { CommandJsonb1765152000000 } from '../../migrations/1765152000000-CommandJsonb.js';
import { GeneratedColumnRecord1765238400000 } from '../../migrations/1765238400000-GeneratedColumnRecord.js';
import { NoEmulatedFunctions1765324800000 } from '../../migrations/1765324800000-NoEmulatedFunctions.js';
import { CatalogueCommandIndex1765411200000 } from '../../migrations/1765411200000-CatalogueCommandIndex.js';
import { UnfinishedCounts1765497600000 } from '../../migrations/1765497600000-UnfinishedCounts.js';
import { SearchFoldParity1765584000000 } from '../../migrations/1765584000000-SearchFoldParity.js';
import { PackageLineage1765670400000 } from '../../migrations/1765670400000-PackageLineage.js';
import { LinkChangesByTarget1765756800000 } from '../../migrations/1765756800000-LinkChangesByTarget.js';
import { SprintIdentity1765843200000 } from '../../migrations/1765843200000-SprintIdentity.js';
import { CommandJsonText1765929600000 } from '../../migrations/1765929600000-CommandJsonText.js';
import { MirrorTextParity1766016000000 } from '../../migrations/1766016000000-MirrorTextParity.js';
import { SprintState1766102400000 } from '../../migrations/1766102400000-SprintState.js';

/** A migration class that states which schema version it produces (SPEC 3.1: each raises it by one). */
export interface VersionedMigration {
  new (): MigrationInterface;
  readonly name: string;
  readonly schemaVersion: number;
}

/** Every migration, oldest first. The last one's version is the schema version this hub runs on. */
export const MIGRATIONS: readonly VersionedMigration[] = [
  SchemaV11760000000000,
  CommandDeliveries1764460800000,
  ApprovalHistory1764547200000,
  MirrorSearch1764633600000,
  QueueLoad1764720000000,
  JiraCatalogue1764806400000,
  AssistantAudit1764892800000,
  ChangeRecord1764979200000,
  PlanningPackages1765065600000,
  CommandJsonb1765152000000,
  GeneratedColumnRecord1765238400000,
  NoEmulatedFunctions1765324800000,
  CatalogueCommandIndex1765411200000,
  UnfinishedCounts1765497600000,
  SearchFoldParity1765584000000,
  PackageLineage1765670400000,
  LinkChangesByTarget1765756800000,
  SprintIdentity1765843200000,
  CommandJsonText1765929600000,
  MirrorTextParity1766016000000,
  SprintState1766102400000,
];
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].schemaVersion;
