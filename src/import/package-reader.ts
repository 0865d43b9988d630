/**
 * Reading a planning package (SPEC 8): CSV, UTF-8 with or without BOM, `,` or `;`, a header row with
 * Russian or English names. Pure: buffers in, rows out, or a PackageError naming the file and row — the
 * first of every bad row and cell found, which it carries (decision 0132).
 */
import { parse } from 'csv-parse/sync';
import { type FieldError, hasNul, isJiraKey, isTempKey, NUL_DETAIL, shownText, ValidationFailedError } from '../common/index.js';
import { NOTE_LIMITS } from '../mirror/index.js';

export type PackageFile = 'notes.csv' | 'links.csv' | 'issues.csv';

/**
 * A problem of a package file, naming the file, the row (the file line) and, where one cell is at fault, its
 * column as the header names it — a header cell is any text, so by its first SHOWN_CHARACTERS characters
 * (decision 1463). The one thrown is the first found; `all` holds every one found with it (itself first, at
 * most PACKAGE_ERRORS_KEPT) and `more` how many others there were beyond those.
 */
export class PackageError extends Error {
  all: readonly PackageError[] = [this];
  more = 0;
  readonly column?: string;
  constructor(
    readonly file: PackageFile,
    readonly row: number | null,
    readonly problem: string,
    column?: string,
  ) {
    super(`${file}${row === null ? '' : `, строка ${row}`}${column === undefined ? '' : `, столбец «${shownText(column)}»`}: ${problem}`);
    if (column !== undefined) this.column = shownText(column);
  }
}

/** How many unknown columns an error names (a header may have hundreds); it says how many more there are. */
const NAMED_COLUMNS = 10;

/** How many of a package's errors one answer names; it says how many more there are. */
export const PACKAGE_ERRORS_KEPT = 50;

/**
 * The errors of a package gathered, so that one answer names every bad row and cell of every file instead
 * of the first alone (decision 0132): each step of reading (a file, a row, a cell) runs through `step`,
 * and the reading ends with `throwIfAny`.
 */
export class PackageErrors {
  private readonly found: PackageError[] = [];
  private beyond = 0;

  add(err: PackageError): void {
    for (const e of err.all) {
      if (this.found.length < PACKAGE_ERRORS_KEPT) this.found.push(e);
      else this.beyond++;
    }
    this.beyond += err.more;
  }

  /** Runs one step; a PackageError it throws (with all it carries) is gathered, and the step gives undefined. */
  step<T>(run: () => T): T | undefined {
    try {
      return run();
    } catch (err) {
      if (!(err instanceof PackageError)) throw err;
      this.add(err);
      return undefined;
    }
  }

  get any(): boolean {
    return this.found.length > 0;
  }

  /** Throws the first error found, carrying every one (or what `as` makes of it: asValidationError), when there is any. */
  throwIfAny(as: (err: PackageError) => unknown = (err) => err): void {
    if (!this.any) return;
    const [first] = this.found;
    first.all = [...this.found];
    first.more = this.beyond;
    throw as(first);
  }
}

const placeOf = (e: PackageError) => (e.row === null ? e.file : `${e.file}:${e.row}${e.column === undefined ? '' : `:${e.column}`}`);

/**
 * The 422 of a package's errors, which also keeps them as lines for a person: each error's text, in order,
 * then how many more there are. The CLI prints them one per line; the answer's body is a
 * ValidationFailedError's (the lines joined in `detail`).
 */
export class PackageValidationError extends ValidationFailedError {
  constructor(
    readonly lines: readonly string[],
    /** every error of the package, those named and those past PACKAGE_ERRORS_KEPT */
    readonly total: number,
    errors: FieldError[],
  ) {
    super(lines.join('; '), errors);
  }
}

/**
 * A PackageError as the 422 every route answers (SPEC 8): one entry per error found, its file and row (and
 * column) as the field; the detail names them all in order (the first error's text alone when it is the
 * only one) and how many more there are past PACKAGE_ERRORS_KEPT. Anything else passes as it is.
 */
export function asValidationError(err: unknown): unknown {
  if (!(err instanceof PackageError)) return err;
  const more = err.more ? [`…и ещё ошибок: ${err.more} (показаны первые ${err.all.length}) — исправьте эти и проверьте пакет снова`] : [];
  const lines = [...err.all.map((e) => e.message), ...more];
  return new PackageValidationError(lines, err.all.length + err.more, err.all.map((e) => ({ field: placeOf(e), detail: e.problem })));
}

const HEADERS: Record<PackageFile, Record<string, string>> = {
  'notes.csv': { ключ: 'key', key: 'key', 'факт. статус': 'fact_status', fact_status: 'fact_status', 'комментарий (внутр.)': 'comment', comment: 'comment' },
  'links.csv': { откуда: 'from', from: 'from', тип: 'type', type: 'type', куда: 'to', to: 'to', 'пояснение (внутр.)': 'note', note: 'note' },
  // SPEC 18
  'issues.csv': {
    ключ: 'key',
    key: 'key',
    тип: 'issue_type',
    issue_type: 'issue_type',
    тема: 'summary',
    summary: 'summary',
    родитель: 'parent',
    parent: 'parent',
    срок: 'duedate',
    duedate: 'duedate',
    метки: 'labels',
    labels: 'labels',
    исполнитель: 'assignee',
    assignee: 'assignee',
    приоритет: 'priority',
    priority: 'priority',
    статус: 'status',
    status: 'status',
    спринт: 'sprint',
    sprint: 'sprint',
    доска: 'board',
    board: 'board',
  },
};
const REQUIRED: Record<PackageFile, string[]> = { 'notes.csv': ['key'], 'links.csv': ['from', 'type', 'to'], 'issues.csv': ['key'] };

/** A column by both names a header may give it: «Откуда» (from); the Russian one as the exported files write it. */
function columnNames(file: PackageFile, canonical: string): string {
  const russian = Object.entries(HEADERS[file]).find(([name, c]) => c === canonical && /[а-яё]/.test(name))?.[0];
  return russian ? `«${russian[0].toUpperCase()}${russian.slice(1)}» (${canonical})` : canonical;
}

/**
 * Columns of which a file with other columns beside the required ones needs at least one: a notes.csv
 * whose note columns are all unknown (misspelled, say) would upsert every row with nothing, silently. A
 * file of keys alone still reads (its rows keep the stored notes; decision 1415).
 */
const ONE_OF: Partial<Record<PackageFile, { columns: string[]; names: string }>> = {
  'notes.csv': { columns: ['fact_status', 'comment'], names: '«Факт. статус» (fact_status) или «Комментарий (внутр.)» (comment)' },
};

/** One body row of a package file: its file line, its cells by canonical column, and each column's name as the header writes it. */
export interface TableRow {
  row: number;
  values: Record<string, string>;
  headers: Record<string, string>;
}

/**
 * A notes row. A field is left out (undefined) when the file has no such column: the stored value is
 * kept; a present column with an empty cell gives null, which clears it.
 */
export interface NoteRow {
  row: number;
  key: string;
  fact_status?: string | null;
  comment?: string | null;
}

export interface LinkRow {
  row: number;
  from: string;
  type: string;
  to: string;
  note: string | null;
}

/** Strict UTF-8; a BOM is dropped (TextDecoder's default). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A package file as text: strict UTF-8 (a Windows-1251 file is refused with a hint instead of becoming
 * U+FFFD silently), the BOM dropped. What the readers parse and what the package table stores.
 */
export function decodePackageFile(file: PackageFile, data: Buffer): string {
  try {
    return UTF8.decode(data);
  } catch {
    // A UTF-16 file starts with its byte-order mark (Excel's «Юникод (текст)», Notepad's «Юникод»).
    const utf16 = data.length >= 2 && ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff));
    const problem = `файл не в кодировке UTF-8 (похоже, ${utf16 ? 'UTF-16' : 'Windows-1251'}); сохраните его как «CSV UTF-8»`;
    const at = utf16 ? 0 : firstInvalidUtf8(data);
    const row = lineCounter(data)(at);
    if (row === 1) throw new PackageError(file, null, problem); // the header already: the whole file
    // Below a readable header: the row and column of the first byte that is no UTF-8 (a cell pasted from another file).
    const lineStart = Math.max(data.lastIndexOf(0x0a, at - 1), data.lastIndexOf(0x0d, at - 1)) + 1;
    const headerEnd = data.findIndex((b) => b === 0x0a || b === 0x0d);
    const header = LENIENT.decode(data.subarray(0, headerEnd)).replace(/^\uFEFF/, '');
    const delimiter = detectDelimiter(header);
    const cell = LENIENT.decode(data.subarray(lineStart, at)).split(delimiter).length - 1;
    const name = header.split(delimiter)[cell]?.trim().replace(/^"|"$/g, '');
    throw new PackageError(file, row, `текст не в кодировке UTF-8 (похоже, Windows-1251: например, ячейку вставили из другого файла); сохраните файл как «CSV UTF-8»`, name || undefined);
  }
}

const LENIENT = new TextDecoder('utf-8');

/** The offset of the first byte that does not belong to valid UTF-8 (the file has one: its strict decoding failed). */
function firstInvalidUtf8(data: Buffer): number {
  // The longest prefix a streaming decoder reads without an error (a sequence cut at the end is no error while streaming).
  let ok = 0;
  let bad = data.length;
  while (bad - ok > 1) {
    const mid = (ok + bad) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(0, mid), { stream: true });
      ok = mid;
    } catch {
      bad = mid;
    }
  }
  return ok;
}

/** The 1-based line of each byte offset asked for, in increasing order; CRLF, LF and a lone CR each end a line. */
function lineCounter(bytes: Buffer): (offset: number) => number {
  let pos = 0;
  let line = 1;
  return (offset) => {
    for (; pos < offset; pos++) {
      const b = bytes[pos];
      if (b === 0x0a || (b === 0x0d && bytes[pos + 1] !== 0x0a)) line++;
    }
    return line;
  };
}

/** The header line: the first non-empty line (a lone CR ends a line too: CSV saved on an old Mac). */
const headerLine = (text: string): string => text.split(/\r\n|\r|\n/).find((line) => line.trim() !== '') ?? '';

/** How many times `c` occurs in `line`. */
const occurrences = (line: string, c: string): number => line.split(c).length - 1;

/** `;` when the header (the first non-empty line) has more semicolons than commas, else `,`. */
export function detectDelimiter(text: string): ',' | ';' {
  const header = headerLine(text);
  return occurrences(header, ';') > occurrences(header, ',') ? ';' : ',';
}

/**
 * Whether the header is separated by tabs rather than by a delimiter the hub reads: more tabs in it than
 * commas and than semicolons — a spreadsheet's «Текст (разделитель — табуляция)» export. Asked only of a
 * file that does not read (no known columns, a required one missing, CSV that does not parse), to say why.
 */
function separatedByTabs(text: string): boolean {
  const header = headerLine(text);
  const tabs = occurrences(header, '\t');
  return tabs > 0 && tabs > occurrences(header, ',') && tabs > occurrences(header, ';');
}

/** Why a file separated by tabs does not read, and what to do (SPEC 8: `,` or `;`). */
export const TAB_SEPARATED =
  'похоже, значения в файле разделены табуляцией (так сохраняет табличный редактор «Текст с разделителями табуляции»), а хаб читает CSV с разделителем «,» (запятая) или «;» (точка с запятой): сохраните файл как «CSV UTF-8 (разделитель — запятая)» или замените табуляции на «;»';

/**
 * Records a package file may have, its header and empty lines included. A team's package is hundreds
 * of rows, an export of a big project tens of thousands (the 10 MB upload limit holds about 100,000 of
 * its rows); a file of millions of tiny rows would hold the hub's only thread for seconds while it is
 * read and checked. Parsing stops one record past the limit.
 */
export const MAX_PACKAGE_RECORDS = 100_000;

/**
 * A cell a spreadsheet would run as a formula: one starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return (OWASP's CSV injection list), after any number of apostrophes (decision 1500).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A value as an export writes it into a package cell (decision 1500): one a spreadsheet would read as a
 * formula (a summary `=HYPERLINK(…)` anyone may type in Jira) gets an apostrophe in front, which a
 * spreadsheet shows as text; `spreadsheetValue` takes it off again, so the package reads back as it was.
 */
export const spreadsheetCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** The value of a package cell: the apostrophe `spreadsheetCell` put before a formula's first character taken off. */
export const spreadsheetValue = (cell: string): string => (cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell);

/**
 * Rows as objects of the canonical names of the columns the header has, each with the file line where
 * its record starts (the header is line 1; a quoted cell may span lines).
 */
export function readTable(file: PackageFile, data: Buffer): TableRow[] {
  const text = decodePackageFile(file, data);
  if (text.trim() === '') throw new PackageError(file, null, 'файл пуст: нужна строка заголовка');
  // csv-parse counts bytes reliably but not lines (a CRLF inside quotes counts twice), so lines are
  // counted here from the byte offset where each record starts.
  const bytes = Buffer.from(text, 'utf8');
  const lineAt = lineCounter(bytes);
  const starts: number[] = [];
  let end = 0;
  let records: string[][];
  try {
    // Empty lines are kept while parsing so that they are counted like any other record.
    records = parse(bytes, {
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: false,
      trim: true,
      to: MAX_PACKAGE_RECORDS + 1,
      on_record: (record: string[], context: { bytes: number }) => {
        starts.push(lineAt(end));
        end = context.bytes;
        return record;
      },
    });
  } catch {
    // A file separated by tabs breaks on its first quoted cell (a value with a comma): the separator is the problem.
    if (separatedByTabs(text)) throw new PackageError(file, null, TAB_SEPARATED);
    // The failing record starts where the last good one ended; csv-parse explains in English, the
    // person gets that line and a Russian hint.
    throw new PackageError(file, lineAt(end), 'CSV не читается: проверьте кавычки и разделители');
  }
  if (records.length > MAX_PACKAGE_RECORDS) {
    throw new PackageError(file, null, `в файле больше ${MAX_PACKAGE_RECORDS} записей (строк таблицы с заголовком и пустыми), а хаб читает файл пакета не длиннее — разделите его на несколько пакетов`);
  }
  // Cells in NFC, Unicode's composed form (decision 1426): a summary or label typed decomposed (NFD, as some
  // editors and macOS write «й» and «ё») is the same text to a person but another label or summary to Jira.
  // Cell by cell, after parsing: a few characters compose into a delimiter (U+037E into «;»).
  const numbered = records.map((cells, i) => ({ row: starts[i], cells: cells.map((c) => c.normalize('NFC')) })).filter(({ cells }) => cells.some((c) => c !== ''));
  if (numbered.length === 0) throw new PackageError(file, null, 'файл пуст: нужна строка заголовка');
  const [{ row: headerRow, cells: header }, ...body] = numbered;
  refuseNul(file, text, numbered, header);
  const names = header.map((h) => HEADERS[file][h.trim().toLowerCase()]);
  const missing = REQUIRED[file].filter((r) => !names.includes(r));
  // The header read as one cell (or a few): its columns are separated by tabs, which is what to say.
  if (missing.length && separatedByTabs(text)) throw new PackageError(file, null, TAB_SEPARATED);
  if (names.every((n) => n === undefined)) {
    throw new PackageError(file, headerRow, `нет известных столбцов; ожидаются ${Object.keys(HEADERS[file]).join(', ')}`);
  }
  if (missing.length) throw new PackageError(file, headerRow, `нет обязательных столбцов: ${missing.map((c) => columnNames(file, c)).join(', ')}`);
  // Two columns for one field (`duedate` and `Срок`, or `key` twice): only the first was read, the other's
  // values dropped without a word.
  const twice = names.flatMap((n, j) => (n !== undefined && names.indexOf(n) < j ? [`«${header[names.indexOf(n)].trim()}» и «${header[j].trim()}»`] : []));
  if (twice.length) throw new PackageError(file, headerRow, `столбцы об одном и том же: ${twice.join(', ')} — оставьте один`);
  const oneOf = ONE_OF[file];
  const unknown = header.filter((h, j) => names[j] === undefined && h.trim() !== '').map((h) => `«${shownText(h.trim())}»`);
  if (oneOf && unknown.length > 0 && !oneOf.columns.some((c) => names.includes(c))) {
    const more = unknown.length > NAMED_COLUMNS ? ` и ещё ${unknown.length - NAMED_COLUMNS}` : '';
    throw new PackageError(file, headerRow, `нет ни одного известного столбца заметки (неизвестные: ${unknown.slice(0, NAMED_COLUMNS).join(', ')}${more}): нужен ${oneOf.names}`);
  }
  const headers: Record<string, string> = {};
  names.forEach((n, j) => {
    if (n && headers[n] === undefined) headers[n] = header[j].trim();
  });
  refuseTextPastHeader(file, header.length, body);
  return body.map(({ row, cells }) => {
    // Only columns the header has get a value: an unknown (or misspelled) column sets nothing.
    const values: Record<string, string> = {};
    names.forEach((n, j) => {
      if (n && values[n] === undefined) values[n] = spreadsheetValue(cells[j] ?? '');
    });
    return { row, values, headers };
  });
}

/**
 * A row with text past the header's last column is refused naming the row (SPEC 8: a malformed file,
 * nothing imported; decision 1406): a comma or semicolon left unquoted in a value shifts the rest of the
 * row, and the text past the last column was dropped without a word. A row cut short reads as empty
 * trailing cells, and empty cells past the header (a trailing separator) are no text.
 */
function refuseTextPastHeader(file: PackageFile, columns: number, rows: { row: number; cells: string[] }[]): void {
  const errors = new PackageErrors();
  for (const { row, cells } of rows) {
    if (cells.slice(columns).some((c) => c !== '')) {
      errors.add(new PackageError(file, row, `ячеек ${cells.length}, а столбцов в заголовке ${columns}: значение с запятой или точкой с запятой берут в кавычки`));
    }
  }
  errors.throwIfAny();
}

/**
 * U+0000 anywhere in a file — a cell of a column the readers use or not: the package table keeps the
 * whole text — is refused as the JSON routes refuse it (neither database can hold it), naming the row
 * and the column as the header writes it. A lone surrogate cannot arrive: strict UTF-8 refuses one.
 */
function refuseNul(file: PackageFile, text: string, rows: { row: number; cells: string[] }[], header: string[]): void {
  if (!hasNul(text)) return;
  const errors = new PackageErrors();
  for (const [i, { row, cells }] of rows.entries()) {
    cells.forEach((cell, j) => {
      if (hasNul(cell)) errors.add(new PackageError(file, row, NUL_DETAIL, i === 0 ? undefined : header[j]?.trim() || `№ ${j + 1}`));
    });
  }
  errors.throwIfAny();
  throw new PackageError(file, null, NUL_DETAIL);
}

export const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

export function checkKey(file: PackageFile, row: number, value: string, what: string): void {
  if (value !== '' && !isJiraKey(value) && !isTempKey(value)) {
    throw new PackageError(file, row, `${what} «${shownText(value)}» — не ключ Jira (ABC-123) и не временный ключ (new:N)`);
  }
}

/** Each row read by `read`, every row's errors gathered: the rows, or the first error carrying them all. */
function eachRow<T>(rows: readonly TableRow[], read: (r: TableRow, errors: PackageErrors) => T): T[] {
  const errors = new PackageErrors();
  const out = rows.map((r) => read(r, errors));
  errors.throwIfAny();
  return out;
}

export function readNotes(data: Buffer): NoteRow[] {
  return eachRow(readTable('notes.csv', data), ({ row, values }, errors) => {
    if (values.key === '') errors.add(new PackageError('notes.csv', row, 'пустой ключ'));
    else errors.step(() => checkKey('notes.csv', row, values.key, 'ключ'));
    const note: NoteRow = { row, key: values.key };
    // A column the file does not have stays out of the row, so the stored value is kept. A quoted cell keeps the
    // spaces and line breaks at its ends through the CSV reader: trimmed here, as PUT /notes trims (and counts) a note.
    if (values.fact_status !== undefined) note.fact_status = orNull(values.fact_status.trim());
    if (values.comment !== undefined) note.comment = orNull(values.comment.trim());
    for (const [field, column] of [['fact_status', 'Факт. статус'], ['comment', 'Комментарий (внутр.)']] as const) {
      const length = [...(note[field] ?? '')].length;
      if (length > NOTE_LIMITS[field]) errors.add(new PackageError('notes.csv', row, `«${column}» длиннее ${NOTE_LIMITS[field]} символов (${length})`));
    }
    return note;
  });
}

export function readLinks(data: Buffer): LinkRow[] {
  return eachRow(readTable('links.csv', data), ({ row, values }, errors) => {
    errors.step(() => checkKey('links.csv', row, values.from, 'начало связи'));
    errors.step(() => checkKey('links.csv', row, values.to, 'конец связи'));
    if (values.type === '') errors.add(new PackageError('links.csv', row, 'пустой тип связи'));
    return { row, from: values.from, type: values.type, to: values.to, note: orNull(values.note) };
  });
}
