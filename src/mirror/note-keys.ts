/**
 * The port through which Mirror learns where the note of a temp key lives (SPEC 6.5): the Jira key an
 * `ensure_issue` resolved it to. Temp keys are Queue's (its commands define them); Queue's
 * `CommandRepository` implements this and AppModule wires it (`NOTE_KEYS`), so Mirror never imports Queue.
 */
import type { EntityManager } from 'typeorm';

export const NOTE_KEYS = Symbol('NoteKeys');

export interface NoteKeys {
  /** The Jira key a temp key stands for now, unless an unfinished `ensure_issue` defines it again; undefined for any other key. */
  currentResolution(m: EntityManager, tempKey: string): Promise<string | undefined>;
}
