/** The `package` table (SPEC 18): every SQL statement on it, inside a caller's unit of work. */
import type { EntityManager } from 'typeorm';
import { insertReturningId } from '../database/engine.js';
import { parseJson } from '../database/json.js';

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

interface Row {
  id: number;
  name: string;
  files: string;
  created_at: string;
  batch_id: number | null;
}

const toPackage = (r: Row): StoredPackage => ({ id: Number(r.id), name: r.name, files: parseJson<PackageTexts>(r.files, {}), created_at: r.created_at, batch_id: r.batch_id === null ? null : Number(r.batch_id) });

export function insertPackage(m: EntityManager, p: { name: string; files: PackageTexts; createdAt: string }): Promise<number> {
  return insertReturningId(m, 'INSERT INTO package (name, files, created_at) VALUES (?, ?, ?)', [p.name, JSON.stringify(p.files), p.createdAt]);
}

export async function setPackageBatch(m: EntityManager, id: number, batchId: number): Promise<void> {
  await m.query('UPDATE package SET batch_id = ? WHERE id = ?', [batchId, id]);
}

export async function findPackage(m: EntityManager, id: number): Promise<StoredPackage | undefined> {
  const [row]: Row[] = await m.query('SELECT * FROM package WHERE id = ?', [id]);
  return row ? toPackage(row) : undefined;
}

export async function packageOfBatch(m: EntityManager, batchId: number): Promise<StoredPackage | undefined> {
  const [row]: Row[] = await m.query('SELECT * FROM package WHERE batch_id = ? ORDER BY id DESC LIMIT 1', [batchId]);
  return row ? toPackage(row) : undefined;
}

/** Newest first, without the files. */
export async function listPackages(m: EntityManager, limit: number, beforeId?: number): Promise<Omit<StoredPackage, 'files'>[]> {
  const rows: Omit<Row, 'files'>[] = await m.query('SELECT id, name, created_at, batch_id FROM package WHERE id < CAST(? AS BIGINT) ORDER BY id DESC LIMIT ?', [
    beforeId ?? Number.MAX_SAFE_INTEGER,
    limit,
  ]);
  return rows.map((r) => ({ ...r, id: Number(r.id), batch_id: r.batch_id === null ? null : Number(r.batch_id) }));
}
