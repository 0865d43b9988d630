/** The `issue_note` table's SQL (SPEC 6.5, 8): notes written by people, imports and package applies, moved when a temp key resolves. */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isTempKey } from '../common/index.js';
import { one, rows, run, sql } from '../database/index.js';

export interface NoteRow {
  key: string;
  fact_status: string | null;
  comment: string | null;
  source: string | null;
  updated_at: string | null;
}

/** The fields a write of a note sets: undefined keeps the stored value, null clears it. */
export interface NotePatch {
  fact_status?: string | null;
  comment?: string | null;
}

@Injectable()
export class NoteRepository {
  get(m: EntityManager, key: string): Promise<NoteRow | undefined> {
    return one<NoteRow>(m, sql`SELECT * FROM issue_note WHERE key = ${key}`);
  }

  list(m: EntityManager): Promise<NoteRow[]> {
    return rows<NoteRow>(m, sql`SELECT * FROM issue_note ORDER BY key`);
  }

  /** Creates or replaces the note of a key. */
  async upsert(m: EntityManager, note: NoteRow): Promise<void> {
    await run(
      m,
      sql`INSERT INTO issue_note (key, fact_status, comment, source, updated_at) VALUES (${note.key}, ${note.fact_status}, ${note.comment}, ${note.source}, ${note.updated_at})
          ON CONFLICT(key) DO UPDATE SET fact_status = excluded.fact_status, comment = excluded.comment, source = excluded.source, updated_at = excluded.updated_at`,
    );
  }

  /**
   * The key the note of `key` is kept under (SPEC 6.5): a note already under the temp key stays there
   * (its ensure_issue is still to run, or never created the issue); otherwise a temp key that stands for
   * an issue now (`resolve`: Queue's current resolution, through the NoteKeys port or a mapping read
   * once) is its issue's Jira key; any other key is itself.
   */
  async keyOf(m: EntityManager, key: string, resolve: (tempKey: string) => Promise<string | undefined> | string | undefined): Promise<string> {
    if (!isTempKey(key)) return key;
    const own = await one(m, sql`SELECT 1 AS x FROM issue_note WHERE key = ${key}`);
    return own ? key : ((await resolve(key)) ?? key);
  }

  /**
   * Writes the note of `key` for `PUT /notes` and imports: the fields of `patch` that are set replace,
   * the others keep what is stored. Callers pass a temp key already resolved as its Jira key (where
   * the move of SPEC 6.5 put the note). Returns the note as stored. A patch that leaves a stored note as
   * it is writes nothing: its source and updated_at stay those of the last change (decision 1408).
   */
  async write(m: EntityManager, key: string, patch: NotePatch, source: string, now: string): Promise<NoteRow> {
    const old = await this.get(m, key);
    const note: NoteRow = {
      key,
      fact_status: patch.fact_status !== undefined ? patch.fact_status : (old?.fact_status ?? null),
      comment: patch.comment !== undefined ? patch.comment : (old?.comment ?? null),
      source,
      updated_at: now,
    };
    if (old && old.fact_status === note.fact_status && old.comment === note.comment) return old;
    await this.upsert(m, note);
    return note;
  }

  /** Moves the note of a temp key to the Jira key it resolved to; a note already on the key wins field by field (SPEC 6.5). */
  async move(m: EntityManager, from: string, to: string, now: string): Promise<void> {
    if (from === to) return;
    const moving = await this.get(m, from);
    if (!moving) return;
    const existing = await this.get(m, to);
    await this.upsert(m, {
      key: to,
      fact_status: existing?.fact_status ?? moving.fact_status,
      comment: existing?.comment ?? moving.comment,
      source: existing?.source ?? moving.source,
      updated_at: now,
    });
    await run(m, sql`DELETE FROM issue_note WHERE key = ${from}`);
  }
}
