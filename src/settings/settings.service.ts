import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { fieldsDetail, SchemaNewerError, ValidationFailedError } from '../common/index.js';
import type { EntityManager } from 'typeorm';
import { Db, SCHEMA_VERSION } from '../database/index.js';
import { EventBus } from '../events/index.js';
import { applyPatch, DEFAULT_SETTINGS, MERGED_KEYS, SETTING_KEYS, type SettingKey, type Settings } from './defaults.js';
import { SettingRepository } from './setting.repository.js';
import type { PatchSettingsDto } from './settings.dto.js';
import { SETTINGS_CHECK, type SettingsCheck } from './settings-check.js';
import { settingWords } from './setting-words.js';

/**
 * Settings live in the `setting` table, one row per top-level key (absent = default). On SQLite this
 * process is the only writer, so the current value is kept in memory after start-up and after every
 * change: the hot path (claim) reads pacing without a query. On PostgreSQL see the constructor.
 */
/** Settings are JSON: equal when their JSON is, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (_: string, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v;
  return JSON.stringify(a, sorted) === JSON.stringify(b, sorted);
}

@Injectable()
export class SettingsService implements OnModuleInit {
  private current: Settings = structuredClone(DEFAULT_SETTINGS);
  private readonly logger = new Logger('Database');
  /** The refusal of a newer schema is logged once. */
  private newerSchemaLogged = false;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly settings: SettingRepository,
    @Optional() @Inject(SETTINGS_CHECK) private readonly check?: SettingsCheck,
  ) {
    if (db.engine === 'postgres') {
      // A replica left on an older version after another one migrated the database would go on reading and
      // writing a schema it does not know (decision 1432): every unit of work first checks the schema version.
      db.onUnitStart({ sql: settings.schemaCheck, apply: (rows) => this.knownSchema(rows) });
      // Several replicas on one PostgreSQL database each keep a copy: every unit of work first checks the
      // stored version (one indexed read) and reloads when another replica changed the settings.
      db.onUnitStart({ sql: settings.versionCheck, apply: (rows, m) => this.refresh(rows, m) });
    }
  }

  /** Refuses the unit when a newer hub has migrated the database past this one's schema (decision 1432). */
  private async knownSchema(found: Record<string, unknown>[]): Promise<void> {
    const version = this.settings.schemaOf(found);
    if (version <= SCHEMA_VERSION) return;
    if (!this.newerSchemaLogged) {
      this.newerSchemaLogged = true;
      this.logger.warn(`a newer hub migrated the database to schema v${version} (this hub knows up to v${SCHEMA_VERSION}): every request that uses it is refused 503 until this replica is updated and restarted`);
    }
    throw new SchemaNewerError(version, SCHEMA_VERSION);
  }

  /** The settings as stored now: on SQLite the kept copy; on PostgreSQL after a check of the stored version. */
  async fresh(): Promise<Settings> {
    if (this.db.engine === 'postgres') await this.db.read(async () => undefined);
    return this.current;
  }

  private async refresh(found: Record<string, unknown>[], m: EntityManager): Promise<void> {
    if (this.settings.versionOf(found, DEFAULT_SETTINGS.version) !== this.current.version) this.current = await this.load(m);
  }

  async onModuleInit(): Promise<void> {
    this.current = await this.db.read((m) => this.load(m));
  }

  /** The committed settings; inside a unit of work of `Db`, exactly those of the database. */
  get(): Settings {
    return this.current;
  }

  async patch(dto: PatchSettingsDto): Promise<Settings> {
    const changes = Object.fromEntries(SETTING_KEYS.filter((k) => dto[k] !== undefined).map((k) => [k, dto[k]])) as Partial<Record<SettingKey, unknown>>;
    if (Object.keys(changes).length === 0) return this.current;
    return this.db.transaction(async (m, tx) => {
      const stored = await this.load(m);
      const patched = applyPatch(stored, changes);
      // A link type or field Jira does not have would stop the agent at its next start (decision 1425).
      const named = {
        ...(changes.link_types !== undefined ? { link_types: patched.link_types } : {}),
        ...(changes.fields !== undefined ? { fields: patched.fields } : {}),
      };
      const problems = this.check ? await this.check.problems(m, named, patched.catalogue_max_age_minutes) : [];
      if (problems.length) throw new ValidationFailedError(fieldsDetail(problems, settingWords), problems);
      // SPEC 9: every change bumps the version; a patch that changes nothing ({pacing: {}}, or the
      // values already stored) is not a change, and agents are not told their settings are stale.
      if (sameJson(patched, stored)) return stored;
      const updated = { ...patched, version: stored.version + 1 };
      for (const key of [...(Object.keys(changes) as SettingKey[]), 'version' as const]) await this.settings.put(m, key, updated[key]);
      // The in-memory copy first, then the event: a listener (the long poll) reads the new settings.
      tx.afterCommit(() => (this.current = updated));
      this.events.afterCommit(tx, [{ kind: 'settings', version: updated.version }]);
      return updated;
    });
  }

  private async load(m: EntityManager): Promise<Settings> {
    const stored = await this.settings.all(m);
    const settings = structuredClone(DEFAULT_SETTINGS);
    for (const key of [...SETTING_KEYS, 'version' as const]) {
      if (stored.has(key)) (settings as unknown as Record<string, unknown>)[key] = stored.get(key);
    }
    // Merged keys keep defaults for entries an older hub did not know.
    for (const key of MERGED_KEYS) {
      (settings as unknown as Record<string, object>)[key] = { ...(DEFAULT_SETTINGS[key] as object), ...(settings[key] as object) };
    }
    return settings;
  }
}
