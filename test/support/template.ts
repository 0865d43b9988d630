import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/common/config.js';
import { SCHEMA_VERSION } from '../../src/database/migrations.js';

/**
 * An empty database as the real migrations leave it, made once per jest worker (by starting and closing a
 * real hub on a new file) and copied for every test hub on a temp file: the ~10 ms each hub spent
 * migrating, hundreds of times a run. The hub still runs its migration step on the copy (which finds
 * every migration applied). The migrations themselves are tested on new files in migration.e2e-spec.ts
 * and schema.e2e-spec.ts, which give their own HUB_DB_PATH. Without jest's globalSetup (no
 * HUB_TEST_TEMPLATES) there is no template and each hub migrates its file.
 */
export async function copyOfMigratedDatabase(target: string): Promise<boolean> {
  const folder = process.env.HUB_TEST_TEMPLATES;
  if (!folder) return false;
  const template = join(folder, `v${SCHEMA_VERSION}-${process.pid}.sqlite`);
  if (!existsSync(template)) {
    const scratch = mkdtempSync(join(folder, 'making-'));
    try {
      const app = await createApp(loadConfig({ HUB_DB_PATH: join(scratch, 'db.sqlite') }), { logger: false });
      await app.close(); // the last connection closed: the WAL is checkpointed into the file and removed
      // The file alone must hold the schema, or every copy would be migrated anew (as when the hub's
      // read-only connection closed after the writer and left the WAL beside the file).
      if (existsSync(join(scratch, 'db.sqlite-wal'))) {
        throw new Error('the hub left its WAL beside the file on close: the template database would be empty');
      }
      renameSync(join(scratch, 'db.sqlite'), template);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  copyFileSync(template, target);
  return true;
}
