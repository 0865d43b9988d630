/**
 * The `catalogue` table's repository (SPEC 16.1): every statement on it. Methods take the caller's
 * EntityManager, so Queue stores a reported catalogue inside its report transaction and reads it inside
 * its submit and claim transactions; the Catalogue module's own routes read it through Db.
 */
import { Injectable } from '@nestjs/common';
import type { Catalogue } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { list, one, parseJson, raw, rows, run, sql } from '../database/index.js';
import type { RowOf } from '../database/index.js';
import type { CatalogueEntity } from './catalogue.entity.js';

type CatalogueRow = RowOf<CatalogueEntity>;

/** A stored catalogue: the agent's report, stamped by the hub, and whether a command's failure made it stale. */
export interface StoredCatalogue extends Catalogue {
  synced_at: string;
  stale_since: string | null;
  stale_reason: string | null;
}

const JSON_PARTS = ['issue_types', 'fields', 'per_type', 'link_types', 'boards', 'sprints', 'priorities', 'components', 'versions', 'permissions', 'assignable'] as const;

function fromRow(r: CatalogueRow): StoredCatalogue {
  const parts = Object.fromEntries(JSON_PARTS.map((p) => [p, parseJson<unknown>(r[p], p === 'per_type' || p === 'permissions' ? {} : [])]));
  return {
    ...(parts as Pick<Catalogue, (typeof JSON_PARTS)[number]>),
    project_key: r.project_key,
    flavor: r.flavor === 'dc' ? 'dc' : 'cloud',
    ...(r.agent_version ? { agent_version: r.agent_version } : {}),
    synced_at: r.synced_at,
    transitions_source: r.transitions_source === 'workflow' ? 'workflow' : 'observed',
    assignable_truncated: Boolean(r.assignable_truncated),
    stale_since: r.stale_since,
    stale_reason: r.stale_reason,
  };
}

@Injectable()
export class CatalogueRepository {
  /** The catalogue of a project, or (no key) the one stored last; null when there is none. */
  async get(m: EntityManager, projectKey?: string): Promise<StoredCatalogue | null> {
    const row = await one<CatalogueRow>(
      m,
      projectKey ? sql`SELECT * FROM catalogue WHERE project_key = ${projectKey}` : sql`SELECT * FROM catalogue ORDER BY synced_at DESC, project_key LIMIT 1`,
    );
    return row ? fromRow(row) : null;
  }

  /** Replaces the project's catalogue by a reported one; a stale mark goes with the old one. */
  async save(m: EntityManager, c: Catalogue, syncedAt: string, agentVersion: string | null): Promise<void> {
    const columns = ['project_key', 'flavor', 'agent_version', 'synced_at', 'stale_since', 'stale_reason', ...JSON_PARTS, 'transitions_source', 'assignable_truncated'];
    const values = [
      c.project_key,
      c.flavor,
      c.agent_version ?? agentVersion,
      syncedAt,
      null,
      null,
      ...JSON_PARTS.map((p) => JSON.stringify(c[p])),
      c.transitions_source,
      c.assignable_truncated ? 1 : 0,
    ];
    const updates = columns.filter((col) => col !== 'project_key').map((col) => `${col} = excluded.${col}`);
    await run(m, sql`INSERT INTO catalogue (${raw(columns.join(', '))}) VALUES (${list(values)}) ON CONFLICT (project_key) DO UPDATE SET ${raw(updates.join(', '))}`);
  }

  /**
   * The project's per-type screens and workflows replaced, nothing else: what a failed status walk showed of
   * Jira's transitions (decision 1485). `synced_at` stays: the rest of the catalogue was not read again.
   */
  async saveTypes(m: EntityManager, projectKey: string, perType: Catalogue['per_type']): Promise<void> {
    await run(m, sql`UPDATE catalogue SET per_type = ${JSON.stringify(perType)} WHERE project_key = ${projectKey}`);
  }

  /** Marks every catalogue stale (a command failed on a screen, field or transition Jira named, or on a permission Jira refused); the first reason is kept. */
  async markStale(m: EntityManager, reason: string, now: string): Promise<void> {
    await run(m, sql`UPDATE catalogue SET stale_since = ${now}, stale_reason = ${reason} WHERE stale_since IS NULL`);
  }

  /** When the oldest catalogue was stored, and whether one is marked stale; null when there is none. */
  async freshness(m: EntityManager): Promise<{ synced_at: string; stale: boolean } | null> {
    const row = await one<{ synced_at: string | null; stale: number | null }>(
      m,
      sql`SELECT min(synced_at) AS synced_at, max(CASE WHEN stale_since IS NULL THEN 0 ELSE 1 END) AS stale FROM catalogue`,
    );
    return row?.synced_at ? { synced_at: row.synced_at, stale: Boolean(row.stale) } : null;
  }
}
