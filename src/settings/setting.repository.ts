/**
 * The `setting` table's repository (SPEC 9): one row per top-level key, its value as JSON text (absent =
 * the default). Every statement on the table outside the migrations (database/migrate.ts reads
 * `schema_version` before any module exists) is here; methods take the caller's EntityManager.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { one, parseJson, rows, run, sql } from '../database/index.js';
import type { RowOf } from '../database/index.js';
import type { SettingEntity } from './setting.entity.js';

export type SettingRow = RowOf<SettingEntity>;

@Injectable()
export class SettingRepository {
  /**
   * The stored settings version, as a statement without parameters: on PostgreSQL every unit of work
   * sends it with its first round trip (Db.onUnitStart); read its rows with `versionOf`.
   */
  readonly versionCheck = `SELECT value FROM setting WHERE key = 'version'`;

  /**
   * The stored schema version, as a statement without parameters: on PostgreSQL every unit of work sends it
   * too, so that a replica whose database a newer hub migrated stops using it (decision 1432); `schemaOf` reads it.
   */
  readonly schemaCheck = `SELECT value FROM setting WHERE key = 'schema_version'`;

  /** The schema version in the rows of `schemaCheck` (0: none stored). */
  schemaOf(found: Record<string, unknown>[]): number {
    const value = Number(found[0]?.value ?? 0);
    return Number.isSafeInteger(value) ? value : 0;
  }

  /** The version in the rows of `versionCheck`, or `fallback` when none is stored. */
  versionOf(found: Record<string, unknown>[], fallback: number): number {
    return parseJson<number>(found[0]?.value as string | undefined, fallback);
  }

  /** Every stored key with its value (parsed JSON). */
  async all(m: EntityManager): Promise<Map<string, unknown>> {
    const found = await rows<SettingRow>(m, sql`SELECT key, value FROM setting`);
    return new Map(found.map((r) => [r.key, parseJson<unknown>(r.value, null)]));
  }

  /** Stores one key's value (JSON), replacing what was there. */
  async put(m: EntityManager, key: string, value: unknown): Promise<void> {
    await run(m, sql`INSERT INTO setting (key, value) VALUES (${key}, ${JSON.stringify(value)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  }

  /** The database schema's version (SPEC 3.1), which the migrations keep under `schema_version`. */
  async schemaVersion(m: EntityManager): Promise<number> {
    const row = await one<SettingRow>(m, sql`SELECT value FROM setting WHERE key = 'schema_version'`);
    if (!row) throw new Error('the setting table has no schema_version: the database is not migrated');
    return Number(JSON.parse(row.value));
  }
}
