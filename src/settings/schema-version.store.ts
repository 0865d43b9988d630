/** Settings' repository for the stored schema version (SPEC 3.1), which GET /health reports. */
import type { EntityManager } from 'typeorm';

export async function readSchemaVersion(m: EntityManager): Promise<number> {
  const [row]: { value: string }[] = await m.query(`SELECT value FROM setting WHERE key = 'schema_version'`);
  return Number(JSON.parse(row.value));
}
