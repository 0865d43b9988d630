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
}

type PackageRow = RowOf<PackageEntity>;

/** PostgreSQL's driver answers bigint and some integer expressions as text: ids are numbers in the views. */
const id = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toPackage = (r: PackageRow): StoredPackage => ({
  id: Number(r.id),
  name: r.name,
  files: parseJson<PackageTexts>(r.files, {}),
  created_at: r.created_at,
  batch_id: id(r.batch_id),
});

@Injectable()
export class PackageRepository {
  /** Stores a package as applied; answers its id. */
  async insert(m: EntityManager, p: { name: string; files: PackageTexts; createdAt: string }): Promise<number> {
    const [row] = await rows<{ id: number }>(m, sql`INSERT INTO package (name, files, created_at) VALUES (${p.name}, ${JSON.stringify(p.files)}, ${p.createdAt}) RETURNING id`);
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

  /** Newest first, without the files. */
  async list(m: EntityManager, limit: number, beforeId?: number): Promise<Omit<StoredPackage, 'files'>[]> {
    const found = await rows<Omit<PackageRow, 'files'>>(
      m,
      sql`SELECT id, name, created_at, batch_id FROM package WHERE id < CAST(${beforeId ?? Number.MAX_SAFE_INTEGER} AS BIGINT) ORDER BY id DESC LIMIT ${limit}`,
    );
    return found.map((r) => ({ id: Number(r.id), name: r.name, created_at: r.created_at, batch_id: id(r.batch_id) }));
  }
}
