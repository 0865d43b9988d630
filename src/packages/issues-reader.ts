/**
 * Reading `issues.csv` of a planning package (SPEC 18): one row per issue, Russian or English headers,
 * an empty cell means "no wish" (the field is left as Jira has it). Pure: a buffer in, rows out, or a
 * PackageError naming the file, the row and the column (carrying every other one found).
 */
import { isJiraKey, isTempKey, shownText } from '../common/index.js';
import { PackageError, PackageErrors, readTable } from '../import/index.js';
import { isCalendarDate, summaryProblem } from '@jira-hub/contracts/catalogue';
import { paramLabel } from '@jira-hub/contracts/russian';

/** The wishes of one issue; a field left out (undefined) is no wish. */
export interface IssueWish {
  issue_type?: string;
  summary?: string;
  parent?: string;
  duedate?: string;
  labels?: string[];
  assignee?: string;
  priority?: string;
  status?: string;
  sprint?: string;
  board?: string;
}

export interface IssueRow extends IssueWish {
  /** the file line of the row */
  row: number;
  /** a Jira key or a temp key */
  key: string;
  /** each column's name as the header writes it (for messages naming a cell) */
  columns: Record<string, string>;
}

export const WISH_FIELDS = ['issue_type', 'summary', 'parent', 'duedate', 'labels', 'assignee', 'priority', 'status', 'sprint', 'board'] as const;
export type WishField = (typeof WISH_FIELDS)[number];

/**
 * The Russian header of each column, for messages about a column the file does not have: the field's name as
 * the hub, MCP and the dashboard name it (paramLabel; decision 1441: «Тема» as Jira and the files say).
 */
export const RUSSIAN_COLUMN = Object.fromEntries((['key', ...WISH_FIELDS] as const).map((f) => [f, paramLabel(f)])) as Record<WishField | 'key', string>;

const FILE = 'issues.csv';
/** Jira's limit on a label (SPEC 16.2); a summary's is summaryProblem's, counted as Jira counts it. */
const MAX_LABEL = 255;

/** Labels: separated by spaces or commas (a label itself has no whitespace in Jira). */
export function splitLabels(cell: string): string[] {
  return [...new Set(cell.split(/[\s,]+/).filter((l) => l !== ''))];
}

/**
 * The rows of issues.csv; every bad cell of every row is gathered, and the first error thrown carries them all
 * (decision 0132). A cell's own error stands for it: a new issue's missing type or summary, or a board
 * without a sprint, is said only when that cell is empty, not when it is bad.
 */
export function readIssues(data: Buffer): IssueRow[] {
  const rows = readTable(FILE, data);
  const seen = new Map<string, number>();
  const errors = new PackageErrors();
  const read = rows.map(({ row, values, headers }) => {
    const column = (f: WishField | 'key') => headers[f] ?? RUSSIAN_COLUMN[f];
    const fail = (f: WishField | 'key', problem: string) => errors.add(new PackageError(FILE, row, problem, column(f)));
    const key = values.key;
    if (key === '') fail('key', 'пустой ключ: у каждой строки ключ Jira (ABC-123) или временный ключ (new:N)');
    else if (!isJiraKey(key) && !isTempKey(key)) fail('key', `«${shownText(key)}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`);
    else {
      const earlier = seen.get(key);
      if (earlier !== undefined) fail('key', `ключ ${key} уже есть в строке ${earlier}: одна строка на задачу`);
      else seen.set(key, row);
    }
    const issue: IssueRow = { row, key, columns: headers };
    for (const f of WISH_FIELDS) {
      const cell = values[f];
      if (cell === undefined || cell === '') continue; // no such column, or an empty cell: no wish
      const problem = cellProblem(f, cell, key);
      if (problem) fail(f, problem);
      else if (f === 'labels') issue.labels = splitLabels(cell);
      else issue[f] = cell;
    }
    const empty = (f: WishField) => (values[f] ?? '') === '';
    if (isTempKey(key)) {
      // A new issue: Jira needs its type and summary to create it.
      if (empty('summary')) fail('summary', `новой задаче ${key} нужна тема`);
      if (empty('issue_type')) fail('issue_type', `новой задаче ${key} нужен тип (Task, Story, Epic, Sub-task…)`);
    }
    if (!empty('board') && empty('sprint')) fail('board', 'доска указана без спринта: она нужна только чтобы выбрать спринт');
    return issue;
  });
  errors.throwIfAny();
  return read;
}

/** What is wrong with a non-empty cell of the row of `key`, in Russian; undefined when nothing is. */
function cellProblem(f: WishField, cell: string, key: string): string | undefined {
  if (f === 'labels') {
    // Only commas and spaces: no label, yet not an empty cell — read as the wish for no labels it cleared the issue's
    // in Jira, which a package never does (decision 0701; decision 1461).
    if (splitLabels(cell).length === 0) return 'в ячейке меток только запятые и пробелы, ни одной метки: пакет метки не стирает — оставьте ячейку пустой, чтобы метки не менять, или впишите метки';
    const long = splitLabels(cell).find((l) => [...l].length > MAX_LABEL);
    return long ? `метка длиннее ${MAX_LABEL} символов: «${long.slice(0, 40)}…»` : undefined;
  }
  if (f === 'parent') {
    if (!isJiraKey(cell) && !isTempKey(cell)) return `«${shownText(cell)}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`;
    if (cell === key) return `задача ${key} не может быть родителем самой себя`;
  }
  if (f === 'duedate' && !isCalendarDate(cell)) return `«${shownText(cell)}» — не дата: нужна дата вида 2026-12-31 (ГГГГ-ММ-ДД)`;
  if (f === 'summary') return summaryProblem(cell) ?? undefined;
  return undefined;
}
