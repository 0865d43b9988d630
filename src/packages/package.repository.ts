/** The `package` table's repository (SPEC 18): every statement on it, inside a caller's unit of work. */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { one, parseJson, rows, run, sql } from '../database/index.js';
import type { RowOf } from '../database/index.js';
import type { PackageEntity } from './package.entity.js';

/** The CSV texts of a package, by file: `issues` (issues.csv), `links`, `notes`. */
export interface PackageTexts {
  issues?: string;
  links?: string;
  notes?: string;
}

export interface StoredPackage {
  id: number;
  name: string;
  files: PackageTexts;
  created_at: string;
  batch_id: number | null;
  /** the stored package this one applied again; null: applied from files */
  applied_from: number | null;
}

/** A package of a line (PackageRepository.line): the batch it submitted and when it was stored. */
export type LinePackage = Pick<StoredPackage, 'id' | 'batch_id' | 'created_at'>;

type PackageRow = RowOf<PackageEntity>;

/** PostgreSQL's driver answers bigint and some integer expressions as text: ids are numbers in the views. */
const id = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toPackage = (r: PackageRow): StoredPackage => ({
  id: Number(r.id),
  name: r.name,
  files: parseJson<PackageTexts>(r.files, {}),
  created_at: r.created_at,
  batch_id: id(r.batch_id),
  applied_from: id(r.applied_from),
});

@Injectable()
export class PackageRepository {
  /** Stores a package as applied; answers its id. */
  async insert(m: EntityManager, p: { name: string; files: PackageTexts; createdAt: string; appliedFrom: number | null }): Promise<number> {
    const [row] = await rows<{ id: number }>(
      m,
      sql`INSERT INTO package (name, files, created_at, applied_from) VALUES (${p.name}, ${JSON.stringify(p.files)}, ${p.createdAt}, ${p.appliedFrom}) RETURNING id`,
    );
    return Number(row.id);
  }

  /** Records the batch the package's apply submitted. */
  async setBatch(m: EntityManager, packageId: number, batchId: number): Promise<void> {
    await run(m, sql`UPDATE package SET batch_id = ${batchId} WHERE id = ${packageId}`);
  }

  async find(m: EntityManager, packageId: number): Promise<StoredPackage | undefined> {
    const row = await one<PackageRow>(m, sql`SELECT * FROM package WHERE id = ${packageId}`);
    return row ? toPackage(row) : undefined;
  }

  /** The latest package whose apply submitted this batch. */
  async ofBatch(m: EntityManager, batchId: number): Promise<StoredPackage | undefined> {
    const row = await one<PackageRow>(m, sql`SELECT * FROM package WHERE batch_id = ${batchId} ORDER BY id DESC LIMIT 1`);
    return row ? toPackage(row) : undefined;
  }

  /**
   * The line of a package (decision 1422): the first package — applied from files — that it was applied
   * again from, directly or through others, and every package applied again from that one or from those,
   * the first first. Their temp keys mean the same issues. (The table holds a few rows per package a team
   * keeps: the walk down reads it without an index.)
   */
  async line(m: EntityManager, packageId: number): Promise<LinePackage[]> {
    const found = await rows<{ id: number | string; batch_id: number | string | null; created_at: string }>(
      m,
      sql`WITH RECURSIVE up(id, applied_from) AS (
            SELECT id, applied_from FROM package WHERE id = ${packageId}
            UNION ALL
            SELECT p.id, p.applied_from FROM package p JOIN up ON p.id = up.applied_from AND p.id < up.id
          ),
          down(id, batch_id, created_at) AS (
            SELECT id, batch_id, created_at FROM package WHERE id = (SELECT min(id) FROM up)
            UNION ALL
            SELECT p.id, p.batch_id, p.created_at FROM package p JOIN down ON p.applied_from = down.id AND p.id > down.id
          )
          SELECT id, batch_id, created_at FROM down ORDER BY id`,
    );
    return found.map((r) => ({ id: Number(r.id), batch_id: id(r.batch_id), created_at: r.created_at }));
  }

  /** Newest first, without the files. */
  async list(m: EntityManager, limit: number, beforeId?: number): Promise<Omit<StoredPackage, 'files'>[]> {
    const found = await rows<Omit<PackageRow, 'files'>>(
      m,
      sql`SELECT id, name, created_at, batch_id, applied_from FROM package WHERE id < CAST(${beforeId ?? Number.MAX_SAFE_INTEGER} AS BIGINT) ORDER BY id DESC LIMIT ${limit}`,
    );
    return found.map((r) => ({ id: Number(r.id), name: r.name, created_at: r.created_at, batch_id: id(r.batch_id), applied_from: id(r.applied_from) }));
  }
}
