/**
 * Reading `issues.csv` of a planning package (SPEC 18): one row per issue, Russian or English headers,
 * an empty cell means "no wish" (the field is left as Jira has it). Pure: a buffer in, rows out, or a
 * PackageError naming the file, the row and the column.
 */
import { isJiraKey, isTempKey } from '../common/index.js';
import { PackageError, readTable } from '../import/index.js';
import { isCalendarDate } from '@jira-hub/contracts/catalogue';

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

/** The Russian header of each column, for messages about a column the file does not have. */
export const RUSSIAN_COLUMN: Record<WishField | 'key', string> = {
  key: 'Ключ',
  issue_type: 'Тип',
  summary: 'Тема',
  parent: 'Родитель',
  duedate: 'Срок',
  labels: 'Метки',
  assignee: 'Исполнитель',
  priority: 'Приоритет',
  status: 'Статус',
  sprint: 'Спринт',
  board: 'Доска',
};

const FILE = 'issues.csv';
/** Jira's limit on a summary (SPEC 16.2) and on a label. */
const MAX_SUMMARY = 255;
const MAX_LABEL = 255;

/** Labels: separated by spaces or commas (a label itself has no whitespace in Jira). */
export function splitLabels(cell: string): string[] {
  return [...new Set(cell.split(/[\s,]+/).filter((l) => l !== ''))];
}

export function readIssues(data: Buffer): IssueRow[] {
  const rows = readTable(FILE, data);
  const seen = new Map<string, number>();
  return rows.map(({ row, values, headers }) => {
    const column = (f: WishField | 'key') => headers[f] ?? RUSSIAN_COLUMN[f];
    const fail = (f: WishField | 'key', problem: string) => new PackageError(FILE, row, problem, column(f));
    const key = values.key;
    if (key === '') throw fail('key', 'пустой ключ: у каждой строки ключ Jira (ABC-123) или временный ключ (new:N)');
    if (!isJiraKey(key) && !isTempKey(key)) throw fail('key', `«${key}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw fail('key', `ключ ${key} уже есть в строке ${earlier}: одна строка на задачу`);
    seen.set(key, row);
    const out: IssueRow = { row, key, columns: headers };
    for (const f of WISH_FIELDS) {
      const cell = values[f];
      if (cell === undefined || cell === '') continue; // no such column, or an empty cell: no wish
      if (f === 'labels') {
        const labels = splitLabels(cell);
        const long = labels.find((l) => [...l].length > MAX_LABEL);
        if (long) throw fail(f, `метка длиннее ${MAX_LABEL} символов: «${long.slice(0, 40)}…»`);
        out.labels = labels;
        continue;
      }
      if (f === 'parent') {
        if (!isJiraKey(cell) && !isTempKey(cell)) throw fail(f, `«${cell}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`);
        if (cell === key) throw fail(f, `задача ${key} не может быть родителем самой себя`);
      }
      if (f === 'duedate' && !isCalendarDate(cell)) throw fail(f, `«${cell}» — не дата: нужна дата вида 2026-12-31 (ГГГГ-ММ-ДД)`);
      if (f === 'summary' && [...cell].length > MAX_SUMMARY) throw fail(f, `тема длиннее ${MAX_SUMMARY} символов (${[...cell].length})`);
      out[f] = cell;
    }
    if (isTempKey(key)) {
      // A new issue: Jira needs its type and summary to create it.
      if (out.summary === undefined) throw fail('summary', `новой задаче ${key} нужна тема`);
      if (out.issue_type === undefined) throw fail('issue_type', `новой задаче ${key} нужен тип (Task, Story, Epic, Sub-task…)`);
    }
    if (out.board !== undefined && out.sprint === undefined) throw fail('board', 'доска указана без спринта: она нужна только чтобы выбрать спринт');
    return out;
  });
}
