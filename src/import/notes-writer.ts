/** Writing a package's notes (SPEC 8) inside a caller's transaction: the import's and a package apply's (SPEC 18). */
import type { EntityManager } from 'typeorm';
import type { NoteRepository } from '../mirror/index.js';
import type { CommandRepository } from '../queue/index.js';
import type { NoteRow } from './package-reader.js';

/**
 * Upserts each note, source `import`. A note for a temp key belongs to its issue, where the move of
 * SPEC 6.5 would have put it (noteKeyOf) — unless an unfinished ensure_issue defines the key again: its
 * report will move the note to the issue it creates. A column the file lacks keeps the stored value.
 */
export async function writePackageNotes(m: EntityManager, notes: readonly NoteRow[], now: string, commands: CommandRepository, store: NoteRepository): Promise<void> {
  if (notes.length === 0) return;
  const noteTargets = await commands.currentResolutions(m);
  for (const n of notes) {
    await store.write(m, await store.keyOf(m, n.key, (t) => noteTargets.get(t)), { fact_status: n.fact_status, comment: n.comment }, 'import', now);
  }
}
