/**
 * Reading a planning package (SPEC 8): CSV, UTF-8 with or without BOM, `,` or `;`, a header row with
 * Russian or English names. Pure: buffers in, rows out, or a PackageError naming the file and row.
 */
import { parse } from 'csv-parse/sync';
import { isJiraKey, isTempKey } from '../common/keys.js';

export type PackageFile = 'notes.csv' | 'links.csv';

export class PackageError extends Error {
  constructor(
    readonly file: PackageFile,
    readonly row: number | null,
    readonly problem: string,
  ) {
    super(`${file}${row === null ? '' : `, строка ${row}`}: ${problem}`);
  }
}

const HEADERS: Record<PackageFile, Record<string, string>> = {
  'notes.csv': { ключ: 'key', key: 'key', 'факт. статус': 'fact_status', fact_status: 'fact_status', 'комментарий (внутр.)': 'comment', comment: 'comment' },
  'links.csv': { откуда: 'from', from: 'from', тип: 'type', type: 'type', куда: 'to', to: 'to', 'пояснение (внутр.)': 'note', note: 'note' },
};
const REQUIRED: Record<PackageFile, string[]> = { 'notes.csv': ['key'], 'links.csv': ['from', 'type', 'to'] };

export interface NoteRow {
  row: number;
  key: string;
  fact_status: string | null;
  comment: string | null;
}

export interface LinkRow {
  row: number;
  from: string;
  type: string;
  to: string;
  note: string | null;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `;` when the header (the first non-empty line) has more semicolons than commas, else `,`. */
export function detectDelimiter(text: string): ',' | ';' {
  const header = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Rows as objects of canonical column names, with their line numbers (the header is line 1). */
function readTable(file: PackageFile, data: Buffer): { row: number; values: Record<string, string> }[] {
  const text = stripBom(data.toString('utf8'));
  if (text.trim() === '') throw new PackageError(file, null, 'файл пуст: нужна строка заголовка');
  let records: string[][];
  try {
    // Empty lines are kept while parsing so that every record keeps its line number in the file.
    records = parse(text, { delimiter: detectDelimiter(text), relax_column_count: true, skip_empty_lines: false, trim: true });
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? null;
    // csv-parse explains in English; the person gets the row and a Russian hint.
    throw new PackageError(file, line, 'CSV не читается: проверьте кавычки и разделители');
  }
  const numbered = records.map((cells, i) => ({ row: i + 1, cells })).filter(({ cells }) => cells.some((c) => c !== ''));
  if (numbered.length === 0) throw new PackageError(file, null, 'файл пуст: нужна строка заголовка');
  const [{ row: headerRow, cells: header }, ...body] = numbered;
  const names = header.map((h) => HEADERS[file][h.trim().toLowerCase()]);
  if (names.every((n) => n === undefined)) {
    throw new PackageError(file, headerRow, `нет известных столбцов; ожидаются ${Object.keys(HEADERS[file]).join(', ')}`);
  }
  const missing = REQUIRED[file].filter((r) => !names.includes(r));
  if (missing.length) throw new PackageError(file, headerRow, `нет обязательных столбцов: ${missing.join(', ')}`);
  return body.map(({ row, cells }) => {
    const values: Record<string, string> = {};
    names.forEach((n, j) => {
      if (n && values[n] === undefined) values[n] = cells[j] ?? '';
    });
    return { row, values };
  });
}

const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

function checkKey(file: PackageFile, row: number, value: string, what: string): void {
  if (value !== '' && !isJiraKey(value) && !isTempKey(value)) {
    throw new PackageError(file, row, `${what} «${value}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`);
  }
}

export function readNotes(data: Buffer): NoteRow[] {
  return readTable('notes.csv', data).map(({ row, values }) => {
    if (values.key === '') throw new PackageError('notes.csv', row, 'пустой ключ');
    checkKey('notes.csv', row, values.key, 'ключ');
    return { row, key: values.key, fact_status: orNull(values.fact_status), comment: orNull(values.comment) };
  });
}

export function readLinks(data: Buffer): LinkRow[] {
  return readTable('links.csv', data).map(({ row, values }) => {
    checkKey('links.csv', row, values.from, 'начало связи');
    checkKey('links.csv', row, values.to, 'конец связи');
    if (values.type === '') throw new PackageError('links.csv', row, 'пустой тип связи');
    return { row, from: values.from, type: values.type, to: values.to, note: orNull(values.note) };
  });
}
