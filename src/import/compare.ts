/** What a package expects of Jira's links, compared with the mirror (SPEC 8). Pure. */
import type { Catalogue } from '@jira-hub/contracts';
import { linkAsSubmitted } from '../catalogue/index.js';
import { isJiraKey, isTempKey } from '../common/index.js';
import type { LinkRow, NoteRow } from './package-reader.js';

import type { ExpectedLink, ImportReport, SkippedLink } from '@jira-hub/contracts';

export type { ExpectedLink, ImportReport, SkippedLink };

/** Why a row's end cannot be compared: empty, or a temp key no batch has resolved yet. */
const unusable = (key: string, what: string): string => (key === '' ? `пусто в «${what}»` : `${key} ещё не создан (временный ключ без задачи в Jira)`);

export interface CompareInput {
  notes: NoteRow[];
  links: LinkRow[];
  /** temp key → Jira key (SPEC 6.3) */
  tempKeys: ReadonlyMap<string, string>;
  /** settings link_types: package name → Jira link type */
  linkTypes: Readonly<Record<string, string>>;
  hasLink(source: string, target: string, linkType: string): boolean;
  hasIssue(key: string): boolean;
  /**
   * The project's catalogue: a type written as Jira's name in another letter case or as its outward or inward
   * words reads as a batch's ensure_link and a package's plan read it (decision 1445). A link of the same type
   * the other way round stays reversed, a symmetric type's too (SPEC 13, scenario 13).
   */
  catalogue?: Catalogue | null;
}

export function translateType(name: string, linkTypes: Readonly<Record<string, string>>): string {
  const wanted = name.trim().toLowerCase();
  const entry = Object.entries(linkTypes).find(([k]) => k.trim().toLowerCase() === wanted);
  return entry ? entry[1] : name.trim();
}

/** A key as Jira knows it: a Jira key, a resolved temp key, or undefined (unresolved or empty). */
function resolve(key: string, tempKeys: ReadonlyMap<string, string>): string | undefined {
  if (isTempKey(key)) return tempKeys.get(key);
  return isJiraKey(key) ? key : undefined;
}

export function compare(input: CompareInput): ImportReport {
  const expected: ExpectedLink[] = [];
  const seen = new Set<string>();
  const skipped_links: SkippedLink[] = [];
  for (const row of input.links) {
    const source = resolve(row.from, input.tempKeys);
    const target = resolve(row.to, input.tempKeys);
    if (!source || !target) {
      const reason = [!source ? unusable(row.from, 'Откуда') : '', !target ? unusable(row.to, 'Куда') : ''].filter(Boolean).join('; ');
      skipped_links.push({ row: row.row, from: row.from, to: row.to, reason });
      continue;
    }
    const read = linkAsSubmitted(input.catalogue, source, target, translateType(row.type, input.linkTypes));
    const link = { source: read.source, target: read.target, link_type: read.linkType };
    const id = JSON.stringify(link);
    if (seen.has(id)) continue;
    seen.add(id);
    expected.push(link);
  }
  const missing_links: ExpectedLink[] = [];
  const reversed_links: ExpectedLink[] = [];
  for (const l of expected) {
    if (input.hasLink(l.source, l.target, l.link_type)) continue;
    if (input.hasLink(l.target, l.source, l.link_type)) reversed_links.push(l);
    else missing_links.push(l);
  }
  // Every Jira key the package names counts, also the known end of a row skipped for its other end.
  const named = [...input.notes.map((n) => n.key), ...input.links.flatMap((l) => [l.from, l.to])]
    .map((k) => resolve(k, input.tempKeys))
    .filter((k): k is string => k !== undefined);
  const missing_keys = [...new Set(named)].filter((k) => !input.hasIssue(k)).sort();
  const report: ImportReport = { notes: input.notes.length, expected_links: expected, missing_keys, missing_links, reversed_links };
  // Only when there are any: the report of a package whose rows all compare keeps its shape.
  if (skipped_links.length) report.skipped_links = skipped_links;
  return report;
}
