/**
 * A package's files read and planned against the mirror, inside a caller's read or transaction: the
 * one path plan, apply and drift share (SPEC 18).
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Catalogue } from '@jira-hub/contracts';
import { comparableText, isTempKey } from '../common/index.js';
import { asValidationError, decodePackageFile, PackageErrors, readLinks, readNotes, type LinkRow, type NoteRow } from '../import/index.js';
import { goneRun, type MissingKeys, type PackageViewRepository } from '../mirror/index.js';
import type { CommandRepository } from '../queue/index.js';
import { readIssues, type IssueRow } from './issues-reader.js';
import type { PackageTexts } from './package.repository.js';
import { keysToRead, planPackage, type KnownValues, type PackagePlan } from './plan.js';

/** The files of a package as they arrive (multipart or a folder). */
export interface PackageFiles {
  issues?: Buffer;
  links?: Buffer;
  notes?: Buffer;
}

export interface ParsedPackage {
  issues: IssueRow[];
  links: LinkRow[];
  notes: NoteRow[];
  /** the files as text, as the package table stores them */
  texts: PackageTexts;
}

/** Reads the files; bad files → one 422 naming the file, the row and the column of every error in each (decision 0132). */
export function parsePackage(files: PackageFiles): ParsedPackage {
  const errors = new PackageErrors();
  const issues = (files.issues && errors.step(() => readIssues(files.issues!))) || [];
  const links = (files.links && errors.step(() => readLinks(files.links!))) || [];
  const notes = (files.notes && errors.step(() => readNotes(files.notes!))) || [];
  errors.throwIfAny(asValidationError);
  return {
    issues,
    links,
    notes,
    texts: {
      ...(files.issues ? { issues: decodePackageFile('issues.csv', files.issues) } : {}),
      ...(files.links ? { links: decodePackageFile('links.csv', files.links) } : {}),
      ...(files.notes ? { notes: decodePackageFile('notes.csv', files.notes) } : {}),
    },
  };
}

/**
 * The stored texts back as files, such that parsePackage reads the same texts from them again: decoding
 * drops one leading BOM, so a text that itself starts with U+FEFF (a file saved with two) gets one before it.
 */
export const filesOf = (texts: PackageTexts): PackageFiles => {
  const file = (text: string) => Buffer.from(text.startsWith('\uFEFF') ? `\uFEFF${text}` : text, 'utf8');
  return {
    ...(texts.issues !== undefined ? { issues: file(texts.issues) } : {}),
    ...(texts.links !== undefined ? { links: file(texts.links) } : {}),
    ...(texts.notes !== undefined ? { notes: file(texts.notes) } : {}),
  };
};

/**
 * A package's identity, the idempotency of apply: the hash of its files as text — what parsePackage
 * decodes and the package table stores, the BOM dropped — so that the same files uploaded with or
 * without a BOM, and the stored package applied again (`POST /packages/{id}/apply`), hash alike. Line
 * endings count as one: a file saved again by Excel (CRLF) or an editor (LF), with or without a newline
 * after its last line, is the same content (sameText).
 *
 * Each text is hashed as its UTF-8 bytes, with the same framing as when the upload's bytes were hashed:
 * for a file without a BOM, with LF endings and a final newline, those are the very bytes uploaded
 * (strict UTF-8 decodes and encodes back byte for byte), so the idempotency keys already stored keep
 * their meaning. A file uploaded with a BOM or CRLF endings hashes differently than before: the same
 * upload, sent again while a batch it submitted before this change still runs, is not recognised as
 * that batch's.
 */
export function filesHash(texts: PackageTexts): string {
  const h = createHash('sha256');
  for (const name of ['issues', 'links', 'notes'] as const) {
    const text = texts[name];
    const data = text === undefined ? undefined : Buffer.from(sameText(text), 'utf8');
    h.update(`${name}:${data ? data.length : -1}:`);
    if (data) h.update(data);
  }
  return h.digest('hex');
}

/** A file's text with its line endings as LF and one newline after its last line (an empty text stays empty). */
const sameText = (text: string): string => {
  const lf = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return lf === '' ? '' : `${lf}\n`;
};

/** The plan of a parsed package against the mirror as it is now; a package error → 422. */
export async function planAgainstMirror(
  m: EntityManager,
  pkg: ParsedPackage,
  options: {
    linkTypes: Readonly<Record<string, string>>;
    known?: KnownValues;
    catalogue?: Catalogue | null;
    now: Date;
    commands: CommandRepository;
    mirror: PackageViewRepository;
    /** a stored package: the batches of its line, whose issues its temp keys mean (another batch's reuse of a temp key is not its issue) */
    tempKeyLine?: { upTo: number; own: readonly number[] };
    /** the mirror's issues by exact summary (Mirror's IssueRepository): a new row's summary the agent would find */
    summaries?: { bySummary(m: EntityManager, summaries: readonly string[]): Promise<Map<string, string[]>> };
    /** the project the package's new issues go to (its Jira keys', else the catalogue's) */
    project?: string;
    /**
     * Unfinished batches whose temp keys are this package's own — its line's, or the running batch these very
     * files submitted — and so no second issue; `null`: do not look (drift compares, it plans nothing).
     */
    ownBatches?: readonly number[] | null;
    /** the keys refreshes found missing in Jira (Mirror's SyncRunRepository): an issue of the mirror gone since it was read */
    runs?: { missingKeys(m: EntityManager): Promise<MissingKeys> };
  },
): Promise<PackagePlan> {
  const tempKeys = await options.commands.tempKeyMapping(m, options.tempKeyLine);
  // Rows that would create an issue: their summaries against the mirror, their temp keys against the queue.
  const creating = pkg.issues.filter((r) => isTempKey(r.key) && !tempKeys.has(r.key));
  const sameSummary = options.summaries ? await options.summaries.bySummary(m, creating.flatMap((r) => (r.summary ? [comparableText(r.summary)] : []))) : new Map<string, string[]>();
  const pendingTempKeys = options.ownBatches === null ? new Map() : await options.commands.pendingDefiners(m, creating.map((r) => r.key), options.ownBatches ?? []);
  const keys = keysToRead(pkg.issues, pkg.links, tempKeys);
  const issues = await options.mirror.issuesByKeys(m, keys.issues);
  // The mirror keeps what Jira deleted (SPEC 7): a refresh after the issue was read that did not find it says it
  // is gone — a row's issue or a link's end (those few ends are read for when the mirror read them).
  const gone = new Map<string, number>();
  const missing: MissingKeys = options.runs ? await options.runs.missingKeys(m) : new Map();
  const named = new Set([...keys.issues, ...keys.ends]);
  const ends = await options.mirror.issuesByKeys(m, [...missing.keys()].filter((k) => named.has(k) && !issues.has(k)));
  for (const key of missing.keys()) {
    const run = goneRun(missing, key, (issues.get(key) ?? ends.get(key))?.synced_at);
    if (run !== undefined) gone.set(key, run);
  }
  for (const key of gone.keys()) issues.delete(key);
  const linkEnds = pkg.links.length ? await options.mirror.existingKeys(m, keys.ends) : new Set<string>();
  const links = new Set((pkg.links.length ? await options.mirror.linksFrom(m, keys.ends) : []).map((l) => `${l.source_key}\u0000${l.target_key}\u0000${l.link_type}`));
  try {
    return planPackage({
      issues: pkg.issues,
      links: pkg.links,
      tempKeys,
      linkTypes: options.linkTypes,
      known: options.known,
      catalogue: options.catalogue,
      mirror: {
        issue: (k) => issues.get(k),
        has: (k) => issues.has(k) || (linkEnds.has(k) && !gone.has(k)),
        hasLink: (s, t, type) => links.has(`${s}\u0000${t}\u0000${type}`),
        sameSummary: (summary) => sameSummary.get(summary) ?? [],
        gone: (k) => gone.get(k),
      },
      now: options.now,
      pendingTempKeys,
      project: options.project,
    });
  } catch (err) {
    throw asValidationError(err);
  }
}
