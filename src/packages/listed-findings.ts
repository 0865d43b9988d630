/**
 * How many of a package's findings an answer lists (decision 1452): plan, apply's plan and drift list the
 * first MAX_LISTED_FINDINGS in file and row order, with the whole count beside them. Only the answer is
 * cut: what the hub decides on a plan it decides on all of its findings. Pure.
 */
import { plural } from '@jira-hub/contracts/russian';

/** The most findings one answer lists. */
export const MAX_LISTED_FINDINGS = 1_000;

interface Located {
  file: string;
  row: number;
}

/** The files of a package in the order a person reads them; another name after them. */
const FILE_ORDER = ['issues.csv', 'links.csv', 'notes.csv'];
const fileRank = (file: string) => {
  const i = FILE_ORDER.indexOf(file);
  return i === -1 ? FILE_ORDER.length : i;
};

/** The first `max` findings in file and row order (stable within a row), and how many there are. */
export function listFindings<F extends Located>(findings: readonly F[], max = MAX_LISTED_FINDINGS): { findings: F[]; findings_total: number } {
  const ordered = [...findings].sort((a, b) => fileRank(a.file) - fileRank(b.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.row - b.row);
  return { findings: ordered.slice(0, max), findings_total: findings.length };
}

/** «показаны первые 1000 из 33000 замечаний»; empty when the answer lists them all. */
export const findingsCutText = (listed: number, total: number): string =>
  listed < total ? `показаны первые ${listed} из ${total} ${plural(total, 'замечания', 'замечаний', 'замечаний')}` : '';
