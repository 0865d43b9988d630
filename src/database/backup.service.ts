import { Inject, Injectable, Logger } from '@nestjs/common';
import { existsSync, readdirSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Clock, HUB_CONFIG, type HubConfig } from '../common/index.js';
import { Meter } from '../metrics/index.js';
import { backupsFolder, copyDatabaseFileInBackground, databaseFile, stamp } from './sqlite-copy.js';

const BATCH_BACKUP = /^(\d{8}-\d{6})-batch-(\d+)\.sqlite$/;

/** Oldest first: by time stamp, then by batch id as a number (batch-9 before batch-10 in the same second). */
export function byAge(a: string, b: string): number {
  const [, ta, ia] = BATCH_BACKUP.exec(a)!;
  const [, tb, ib] = BATCH_BACKUP.exec(b)!;
  return ta === tb ? Number(ia) - Number(ib) : ta < tb ? -1 : 1;
}

/** A failure's text for the log: never `[object Object]`. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null) return JSON.stringify(err);
  return String(err);
}

/**
 * Copies of a file database before a batch first writes to Jira (SPEC 3.2). On PostgreSQL no file is
 * copied: the time of the first write is logged instead (README, "Backups on PostgreSQL"). Runs after the claim's
 * transaction has committed, in a worker thread (a large database must not stall other requests);
 * a failure is logged with its reason and kept as a warning for GET /agent, never thrown, and
 * leaves no file under a copy's name (sqlite-copy.ts writes a partial name and renames).
 */
@Injectable()
export class BackupService {
  private readonly logger = new Logger('Backups');
  private readonly file: string | null;
  private readonly onPostgres: boolean;
  private failure: { at: string; batchId: number; message: string } | null = null;
  private readonly inFlight = new Set<Promise<string | null>>();

  constructor(
    @Inject(HUB_CONFIG) config: HubConfig,
    private readonly clock: Clock,
    private readonly meter: Meter,
  ) {
    this.onPostgres = Boolean(config.databaseUrl);
    this.file = this.onPostgres ? null : databaseFile(config.dbPath);
  }

  /**
   * Whether a batch has its copy (SPEC 3.2 as amended): false when the hub died between the claim's
   * commit and the end of the copy, or the copy failed. Always true for an in-memory database. A folder
   * that cannot be read (a file in its place, another user's folder) holds no copy either: the claim
   * tries the copy again, which fails, is logged and warned about, and the queue goes on (it answered
   * 500 to every re-delivery, and the command never reached its delivery limit).
   */
  hasCopy(batchId: number): boolean {
    if (!this.file) return true;
    const suffix = `-batch-${batchId}.sqlite`;
    try {
      const folder = backupsFolder(this.file);
      return existsSync(folder) && readdirSync(folder).some((n) => n.endsWith(suffix) && BATCH_BACKUP.test(n));
    } catch {
      return false;
    }
  }

  /** The last failed copy, until a later copy succeeds. */
  lastFailure() {
    return this.failure;
  }

  /**
   * Resolves when no copy is being made. A claim waits for this before it looks at the queue and
   * before it answers (DeliveryService.claim): a command re-delivered while its batch's copy runs must
   * not reach Jira, nor its report the database, before the copy is made.
   */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** A copy is being made (registered synchronously by `beforeBatch`). */
  busy(): boolean {
    return this.inFlight.size > 0;
  }

  beforeBatch(batchId: number, keep: number): Promise<string | null> {
    const copy = this.copy(batchId, keep);
    this.inFlight.add(copy);
    void copy.finally(() => this.inFlight.delete(copy)).catch(() => undefined);
    return copy;
  }

  private async copy(batchId: number, keep: number): Promise<string | null> {
    if (this.onPostgres) {
      // The server's own backups and point-in-time recovery take the place of the copy: the log line
      // names the moment to restore to, just before this batch's first write.
      this.logger.log(`batch ${batchId}: first write handed out at ${this.clock.iso()}; to undo the batch, restore the database to a point just before this time`);
      return null;
    }
    if (!this.file) return null;
    try {
      const folder = backupsFolder(this.file, true);
      const target = join(folder, `${stamp(this.clock.now())}-batch-${batchId}.sqlite`);
      await copyDatabaseFileInBackground(this.file, target);
      await this.rotate(folder, keep);
      this.failure = null;
      this.meter.backup('made');
      this.logger.log(`copied the database to ${target} before batch ${batchId} writes`);
      return target;
    } catch (err) {
      const message = reasonOf(err);
      this.failure = { at: this.clock.iso(), batchId, message };
      this.meter.backup('failed');
      this.logger.error(`backup before batch ${batchId} failed: ${message}`);
      return null;
    }
  }

  /**
   * Keeps the newest `keep` batch copies; schema copies are never rotated. Partial copies left by a
   * crash go too, with SQLite's journal beside them (one copy runs at a time, and this one is whole by now).
   */
  private async rotate(folder: string, keep: number): Promise<void> {
    const names = await readdir(folder);
    const copies = names.filter((n) => BATCH_BACKUP.test(n)).sort(byAge);
    // The partial copy and SQLite's files beside it (its rollback journal, or WAL and shared memory).
    const partial = names.filter((n) => /\.partial(-journal|-wal|-shm)?$/.test(n));
    for (const old of [...partial, ...copies.slice(0, Math.max(0, copies.length - keep))]) await rm(join(folder, old), { force: true });
  }
}
