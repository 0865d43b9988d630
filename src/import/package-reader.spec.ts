import { describe, expect, it } from '@jest/globals';
import { ValidationFailedError } from '../common/index.js';
import { asValidationError, detectDelimiter, MAX_PACKAGE_RECORDS, PACKAGE_ERRORS_KEPT, PackageError, PackageErrors, readLinks, readNotes, type PackageFile } from './package-reader.js';

const buf = (text: string) => Buffer.from(text, 'utf8');
const BOM = '\uFEFF';

/** The PackageError thrown by `fn`, or a failure when none is thrown. */
function packageError(fn: () => unknown): PackageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PackageError);
    return err as PackageError;
  }
  throw new Error('expected a PackageError, nothing was thrown');
}

describe('detectDelimiter', () => {
  it.each([
    ['key,fact_status,comment\nA-1;x;y', ','],
    ['Ключ;Факт. статус;Комментарий (внутр.)\nA-1,x', ';'],
    ['key\nA-1', ','],
    ['from;type;to\r\nA-1;Blocks;A-2', ';'],
    // lines ended by a lone CR: the header is the first line only
    ['key,comment\rCR-7,a;b;c;d\r', ','],
  ])('%j → %s', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});

describe('readNotes (SPEC 8)', () => {
  const expected = [
    { row: 2, key: 'AURORA-1', fact_status: 'Готово', comment: 'ок' },
    { row: 3, key: 'new:1', fact_status: null, comment: null },
  ];
  it.each([
    ['English header, comma', 'key,fact_status,comment\nAURORA-1,Готово,ок\nnew:1,,\n'],
    ['Russian header, comma', 'Ключ,Факт. статус,Комментарий (внутр.)\nAURORA-1,Готово,ок\nnew:1,,\n'],
    ['Russian header, semicolon', 'Ключ;Факт. статус;Комментарий (внутр.)\nAURORA-1;Готово;ок\nnew:1;;\n'],
    ['with BOM', `${BOM}Ключ;Факт. статус;Комментарий (внутр.)\nAURORA-1;Готово;ок\nnew:1;;\n`],
    ['with BOM, English, comma', `${BOM}key,fact_status,comment\nAURORA-1,Готово,ок\nnew:1,,\n`],
    ['headers in another case and padded', ' КЛЮЧ , факт. СТАТУС ,КОММЕНТАРИЙ (ВНУТР.)\nAURORA-1,Готово,ок\nnew:1,,\n'],
    ['English header in upper case', 'KEY;Fact_Status;COMMENT\nAURORA-1;Готово;ок\nnew:1;;\n'],
    ['columns in another order', 'comment,key,fact_status\nок,AURORA-1,Готово\n,new:1,\n'],
    ['CRLF line ends', 'key,fact_status,comment\r\nAURORA-1,Готово,ок\r\nnew:1,,\r\n'],
    ['no trailing newline', 'key,fact_status,comment\nAURORA-1,Готово,ок\nnew:1,,'],
    ['short rows', 'key,fact_status,comment\nAURORA-1,Готово,ок\nnew:1\n'],
    ['an unknown column beside known ones is ignored', 'key,owner,fact_status,comment\nAURORA-1,x,Готово,ок\nnew:1,y,,\n'],
    ['empty cells past the header (a trailing separator)', 'key,fact_status,comment\nAURORA-1,Готово,ок,\nnew:1,,,,\n'],
    ['empty lines at the end skipped', 'key,fact_status,comment\nAURORA-1,Готово,ок\nnew:1,,\n\n\n'],
  ])('%s', (_name, text) => {
    expect(readNotes(buf(text))).toEqual(expected);
  });

  it('text past the header\'s last column (a separator left unquoted in a value) is refused naming every such row', () => {
    const text = 'key,fact_status,comment\nAURORA-1,Готово,первое, второе\nAURORA-2,Готово,ок\nAURORA-3,,a,b,c\n';
    const err = packageError(() => readNotes(buf(text)));
    expect(err.all.map((e) => [e.row, e.problem])).toEqual([
      [2, 'ячеек 4, а столбцов в заголовке 3: значение с запятой или точкой с запятой берут в кавычки'],
      [4, 'ячеек 5, а столбцов в заголовке 3: значение с запятой или точкой с запятой берут в кавычки'],
    ]);
  });

  it.each([
    ['a comma inside a quoted field', 'key,fact_status,comment\nAURORA-1,Готово,"первое, второе"\n', 'первое, второе'],
    ['a semicolon inside a quoted field', 'key;fact_status;comment\nAURORA-1;Готово;"первое; второе"\n', 'первое; второе'],
    ['a quote inside a quoted field', 'key,fact_status,comment\nAURORA-1,Готово,"он сказал ""да"""\n', 'он сказал "да"'],
  ])('%s', (_name, text, comment) => {
    expect(readNotes(buf(text))).toEqual([{ row: 2, key: 'AURORA-1', fact_status: 'Готово', comment }]);
  });

  it('a quoted note is trimmed at its ends as PUT /notes trims it; 2,000 characters and a line break fit the limit (counted after trimming)', () => {
    expect(readNotes(buf('key,fact_status,comment\nAURORA-1,Готово,"  ок \n"\n'))).toEqual([{ row: 2, key: 'AURORA-1', fact_status: 'Готово', comment: 'ок' }]);
    const text = `key,fact_status,comment\nAURORA-1,"${'я'.repeat(2000)}\n",ок\n`;
    expect(readNotes(buf(text))).toEqual([{ row: 2, key: 'AURORA-1', fact_status: 'я'.repeat(2000), comment: 'ок' }]);
  });

  it('a column absent from the header is left out of the rows (the stored value is kept), not read as empty', () => {
    expect(readNotes(buf('Ключ\nA-1\nnew:2\n'))).toStrictEqual([
      { row: 2, key: 'A-1' },
      { row: 3, key: 'new:2' },
    ]);
    expect(readNotes(buf('key,comment\nA-1,ок\n'))).toStrictEqual([{ row: 2, key: 'A-1', comment: 'ок' }]);
  });

  it('note columns all unknown (misspelled): refused naming them, not read as rows of keys alone (decision 1415)', () => {
    for (const text of ['key,Факт статус,Коментарий\nA-1,Готово,ок\n', 'Ключ;status\nA-1;Готово\n']) {
      const err = packageError(() => readNotes(buf(text)));
      expect(err.row).toBe(1);
      expect(err.message).toMatch(/нет ни одного известного столбца заметки \(неизвестные: «.+»\): нужен «Факт\. статус» \(fact_status\) или «Комментарий \(внутр\.\)» \(comment\)/);
    }
    expect(packageError(() => readNotes(buf('key,Факт статус\nA-1,x\n'))).message).toContain('неизвестные: «Факт статус»');
  });

  it('unknown columns are named by their first 100 characters, the first ten of them, not echoed whole', () => {
    const long = 'Ж'.repeat(20_000);
    const err = packageError(() => readNotes(buf(`key,${long}\nA-1,x\n`)));
    expect(err.message).toContain(`неизвестные: «${'Ж'.repeat(100)}… [обрезано: ещё 19900 символов]»`);
    expect(err.message.length).toBeLessThan(400);
    const many = packageError(() => readNotes(buf(`key,${Array.from({ length: 300 }, (_, i) => `c${i + 1}`).join(',')}\nA-1\n`)));
    expect(many.problem).toContain('неизвестные: «c1», «c2», «c3», «c4», «c5», «c6», «c7», «c8», «c9», «c10» и ещё 290)');
  });

  it('a column named in an error (a cell with U+0000, one not in UTF-8) is named by its first 100 characters', () => {
    const long = 'З'.repeat(5_000);
    const shown = `${'З'.repeat(100)}… [обрезано: ещё 4900 символов]`;
    const nul = packageError(() => readNotes(buf(`key,comment,${long}\nA-1,ок,a\u0000b\n`)));
    expect([nul.column, nul.message.includes(`столбец «${shown}»`), nul.message.length < 400]).toEqual([shown, true, true]);
    const cp1251 = packageError(() => readNotes(Buffer.concat([buf(`key,comment,${long}\nA-1,ок,`), Buffer.from([0xcf, 0xf0]), buf('\n')])));
    expect([cp1251.column, cp1251.message.length < 400]).toEqual([shown, true]);
  });

  it.each([
    ['key,comment,Комментарий (внутр.)\nA-1,первый,второй\n', '«comment» и «Комментарий (внутр.)»'],
    ['key,key,comment\nA-1,A-2,ок\n', '«key» и «key»'],
    ['key,fact_status,Факт. статус,comment,COMMENT\nA-1,a,b,c,d\n', '«fact_status» и «Факт. статус», «comment» и «COMMENT»'],
  ])('two columns for one field are refused naming both (the second was dropped without a word): %j', (text, named) => {
    const err = packageError(() => readNotes(buf(text)));
    expect(err.row).toBe(1);
    expect(err.message).toContain(`столбцы об одном и том же: ${named} — оставьте один`);
  });

  it('a misspelled header is an unknown column: ignored, and its column counts as absent', () => {
    expect(readNotes(buf('key,Факт статус,comment\nA-1,Готово,ок\n'))).toStrictEqual([{ row: 2, key: 'A-1', comment: 'ок' }]);
  });

  it('a present column with an empty cell gives null (it clears the stored value)', () => {
    expect(readNotes(buf('key,fact_status,comment\nA-1,,ок\n'))).toStrictEqual([{ row: 2, key: 'A-1', fact_status: null, comment: 'ок' }]);
  });

  it('a missing required column is named as the header would write it, in Russian and by its field', () => {
    expect(() => readLinks(buf('Откуда;Тип\nA-1;Blocks\n'))).toThrow('links.csv, строка 1: нет обязательных столбцов: «Куда» (to)');
    expect(() => readNotes(buf('comment\nок\n'))).toThrow('notes.csv, строка 1: нет обязательных столбцов: «Ключ» (key)');
  });

  it('a header only gives no rows', () => {
    expect(readNotes(buf('key,fact_status,comment\n'))).toEqual([]);
  });

  it(`a file of ${MAX_PACKAGE_RECORDS} records (the header included) is read; one more is refused as too long, not read row by row`, () => {
    const rows = (n: number) => buf(['key,comment', ...Array.from({ length: n }, (_, i) => `A-${i + 1},x`)].join('\n'));
    expect(readNotes(rows(MAX_PACKAGE_RECORDS - 1))).toHaveLength(MAX_PACKAGE_RECORDS - 1);
    expect(() => readNotes(rows(MAX_PACKAGE_RECORDS))).toThrow(`notes.csv: в файле больше ${MAX_PACKAGE_RECORDS} записей`);
  });
});

describe('row numbers: the file line where the record starts (SPEC 8)', () => {
  it('counts the lines of a quoted multi-line cell', () => {
    expect(readNotes(buf('key,comment\nA-1,"первая\nвторая\nтретья"\nA-2,ок\n')).map((n) => n.row)).toEqual([2, 5]);
  });

  it('keeps a CRLF inside quotes and counts it as one line break', () => {
    expect(readNotes(buf('key,comment\r\nA-1,"один\r\nдва"\r\nA-2,ок\r\n'))).toEqual([
      { row: 2, key: 'A-1', comment: 'один\r\nдва' },
      { row: 4, key: 'A-2', comment: 'ок' },
    ]);
  });

  it('a bad key after a quoted multi-line cell is named by its own line', () => {
    const err = packageError(() => readNotes(buf('key,comment\nA-1,"первая\nвторая"\nA-2,ок\nbad,x\nA-3,ок\n')));
    expect(err.row).toBe(5);
    expect(err.message).toContain('строка 5');
  });

  it('an unclosed quote is named by the line where its record starts, not the end of the file', () => {
    const err = packageError(() => readNotes(buf('key,comment\nA-1,ок\nA-2,"открыта\nи не закрыта\nA-3,ок\nA-4,ок\n')));
    expect(err.row).toBe(3);
    expect(err.message).toContain('notes.csv, строка 3');
  });

  it('a bad closing quote after a multi-line cell is named by the line where its record starts', () => {
    const err = packageError(() => readLinks(buf('from,type,to,note\r\nA-1,Blocks,A-2,"раз\r\nдва"\r\nA-1,Blocks,A-3,"x"y\r\n')));
    expect(err.row).toBe(4);
  });
});

describe('encoding (SPEC 8: UTF-8 with or without BOM)', () => {
  // «Ключ;Комментарий (внутр.)» / «A-1;ок» as Excel saves them in Windows-1251
  const cp1251 = Buffer.from([
    0xca, 0xeb, 0xfe, 0xf7, 0x3b, 0xca, 0xee, 0xec, 0xec, 0xe5, 0xed, 0xf2, 0xe0, 0xf0, 0xe8, 0xe9, 0x20, 0x28, 0xe2, 0xed, 0xf3, 0xf2, 0xf0, 0x2e, 0x29, 0x0d, 0x0a,
    0x41, 0x2d, 0x31, 0x3b, 0xee, 0xea, 0x0d, 0x0a,
  ]);

  it('a file not in UTF-8 (cp1251 from Excel) → PackageError naming the file', () => {
    const err = packageError(() => readNotes(cp1251));
    expect(err.file).toBe('notes.csv');
    expect(err.message).toContain('notes.csv');
    expect(err.message).toContain('UTF-8');
  });

  it('says the encoding it looks like: Windows-1251, or UTF-16 by its byte-order mark (either byte order)', () => {
    expect(packageError(() => readNotes(cp1251)).problem).toBe('файл не в кодировке UTF-8 (похоже, Windows-1251); сохраните его как «CSV UTF-8»');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('key,comment\nA-1,ок\n', 'utf16le')]);
    const be = Buffer.from(le).swap16(); // a copy: swap16 swaps in place
    for (const utf16 of [le, be]) expect(packageError(() => readNotes(utf16)).problem).toBe('файл не в кодировке UTF-8 (похоже, UTF-16); сохраните его как «CSV UTF-8»');
  });

  it('names links.csv too, and when only a cell below the header is not UTF-8, its row and column', () => {
    const text = Buffer.concat([buf('from,type,to,note\nA-1,Blocks,A-2,ok\nA-2,Blocks,A-3,'), Buffer.from([0xee, 0xea]), buf('\n')]);
    const err = packageError(() => readLinks(text));
    expect(err).toMatchObject({ file: 'links.csv', row: 3, column: 'note' });
    expect(err.problem).toBe('текст не в кодировке UTF-8 (похоже, Windows-1251: например, ячейку вставили из другого файла); сохраните файл как «CSV UTF-8»');
  });

  it.each([
    ['a cell in the middle of a row, CRLF lines', Buffer.concat([buf('Ключ;Тема;Срок\r\nA-1;ок;\r\nA-2;'), Buffer.from([0xcf, 0xf0, 0xe8]), buf(';2026-12-01\r\n')]), 3, 'Тема'],
    ['after a valid Cyrillic cell of the same row', Buffer.concat([buf('Ключ;Тема;Комментарий (внутр.)\nA-1;Отчёт;'), Buffer.from([0xee, 0xea])]), 2, 'Комментарий (внутр.)'],
  ])('the first byte that is no UTF-8: %s → its row and the column of the header', (_name, data, row, column) => {
    expect(packageError(() => readNotes(data))).toMatchObject({ row, column });
  });
});

describe('readLinks (SPEC 8)', () => {
  it.each([
    ['Russian header, semicolon', 'Откуда;Тип;Куда;Пояснение (внутр.)\nAURORA-1533;связанные;AURORA-1586;см. план\n'],
    ['English header, comma', 'from,type,to,note\nAURORA-1533,связанные,AURORA-1586,см. план\n'],
    ['with BOM', `${BOM}from,type,to,note\nAURORA-1533,связанные,AURORA-1586,см. план\n`],
    ['mixed-case padded headers', ' ОТКУДА ; тип ;Куда; Пояснение (Внутр.) \nAURORA-1533;связанные;AURORA-1586;см. план\n'],
  ])('%s', (_name, text) => {
    expect(readLinks(buf(text))).toEqual([{ row: 2, from: 'AURORA-1533', type: 'связанные', to: 'AURORA-1586', note: 'см. план' }]);
  });

  it('keeps rows with an empty end and temp keys (compare decides)', () => {
    expect(readLinks(buf('from,type,to\nnew:1,Blocks,\n,Blocks,A-2\n'))).toEqual([
      { row: 2, from: 'new:1', type: 'Blocks', to: '', note: null },
      { row: 3, from: '', type: 'Blocks', to: 'A-2', note: null },
    ]);
  });
});

describe('malformed packages → PackageError naming file and row (SPEC 8)', () => {
  const read = (file: PackageFile, text: string) => (file === 'notes.csv' ? readNotes(buf(text)) : readLinks(buf(text)));

  it.each([
    ['notes: no header (data in the first line)', 'notes.csv', 'AURORA-1,Готово,ок\nAURORA-2,,\n', 1],
    ['notes: unknown columns only', 'notes.csv', 'issue,state\nAURORA-1,x\n', 1],
    ['notes: missing required key column', 'notes.csv', 'fact_status,comment\nГотово,ок\n', 1],
    ['notes: bad key in row 3', 'notes.csv', 'key,comment\nAURORA-1,ок\naurora-2,ок\nAURORA-3,ок\n', 3],
    ['notes: empty key in row 2', 'notes.csv', 'key,comment\n,ок\n', 2],
    ['notes: temp key new:0 in row 2', 'notes.csv', 'key\nnew:0\n', 2],
    ['links: no header', 'links.csv', 'AURORA-1,связанные,AURORA-2\n', 1],
    ['links: unknown columns only', 'links.csv', 'a;b;c\n1;2;3\n', 1],
    ['links: missing required column to', 'links.csv', 'from,type,note\nA-1,Blocks,x\n', 1],
    ['links: missing required column type', 'links.csv', 'Откуда;Куда\nA-1;A-2\n', 1],
    ['links: bad from key in row 3', 'links.csv', 'from,type,to\nA-1,Blocks,A-2\nX,Blocks,A-2\n', 3],
    ['links: bad to key in row 3', 'links.csv', 'from;type;to\nA-1;Blocks;A-2\nA-1;Blocks;A 2\n', 3],
  ] as [string, PackageFile, string, number][])('%s', (_name, file, text, row) => {
    const err = packageError(() => read(file, text));
    expect(err.file).toBe(file);
    expect(err.row).toBe(row);
    expect(err.message).toContain(file);
    expect(err.message).toContain(`строка ${row}`);
  });

  it.each([
    ['notes.csv', ''],
    ['notes.csv', `${BOM}\n\n`],
    ['links.csv', '   '],
  ] as [PackageFile, string][])('%s: empty file %j', (file, text) => {
    const err = packageError(() => read(file, text));
    expect(err.file).toBe(file);
    expect(err.message).toContain(file);
  });

  it.each([
    ['fact_status', 2000, 'Факт. статус'],
    ['comment', 20000, 'Комментарий (внутр.)'],
  ])('a %s longer than PUT /notes allows (%i characters) is refused, naming the row', (column, limit, title) => {
    const ok = readNotes(buf(`key,${column}\nA-1,${'я'.repeat(limit as number)}\n`));
    expect([...(ok[0][column as 'comment'] ?? '')].length).toBe(limit);
    const err = packageError(() => readNotes(buf(`key,${column}\nA-1,ок\nA-2,${'😀'.repeat((limit as number) + 1)}\n`)));
    expect(err.row).toBe(3);
    expect(err.problem).toBe(`«${title}» длиннее ${limit} символов (${(limit as number) + 1})`);
  });

  it('names the bad key in the problem', () => {
    const err = packageError(() => readNotes(buf('key\nA-1\nabc\n')));
    expect(err.problem).toContain('abc');
  });

  it('counts skipped empty lines in the row number of an error', () => {
    const err = packageError(() => readNotes(buf('key,comment\nAURORA-1,ок\n\nbad,ок\n')));
    expect(err.row).toBe(4);
  });

  it.each([
    ['notes.csv', 'Ключ\tФакт. статус\tКомментарий (внутр.)\nA-1\tГотово\tок\n'],
    ['links.csv', 'from\ttype\tto\r\nA-1\tBlocks\tA-2\r\n'],
    // Excel quotes a cell with a comma: the line does not even parse with `,`
    ['notes.csv', 'key\tcomment\nA-1\t"первое, второе"\n'],
    // a header of one known column and the rest unknown, tabs between them
    ['links.csv', 'Откуда\tТип\tКуда,\n'],
  ] as [PackageFile, string][])('%s separated by tabs: refused saying so and which separators the hub reads (%j)', (file, text) => {
    const err = packageError(() => read(file, text));
    expect(err.file).toBe(file);
    expect(err.row).toBeNull();
    expect(err.message).toMatch(new RegExp(`^${file.replace('.', '\\.')}: похоже, значения в файле разделены табуляцией`));
    expect(err.problem).toContain('разделителем «,» (запятая) или «;» (точка с запятой)');
  });

  it('a tab inside a header cell of a comma file is no tab separation', () => {
    const err = packageError(() => readNotes(buf('key\tx,comment\nA-1,ок\n')));
    expect(err.problem).toContain('нет обязательных столбцов');
    expect(readNotes(buf('key,comment\tинфо,comment\nA-1,x,ок\n'))).toEqual([{ row: 2, key: 'A-1', comment: 'ок' }]);
  });

  it('takes the delimiter from the first non-empty line', () => {
    expect(readNotes(buf('\nkey;comment\nA-1;ок\n'))).toEqual([{ row: 3, key: 'A-1', comment: 'ок' }]);
  });
});

describe('PackageErrors: every error of a package in one answer (decision 0132)', () => {
  it('gathers what each step throws, with all it carries; the first is thrown carrying them all', () => {
    const errors = new PackageErrors();
    expect(errors.step(() => readNotes(buf('key\nA-1\n')))).toEqual([{ row: 2, key: 'A-1' }]);
    expect(errors.step(() => readNotes(buf('key\nbad\n\nnew:0\n')))).toBeUndefined();
    expect(errors.step(() => readLinks(buf('from;type;to\nA-1;;A-2\n')))).toBeUndefined();
    expect(() => errors.step(() => JSON.parse('{'))).toThrow(SyntaxError); // not a package error: a bug stays one
    const err = packageError(() => errors.throwIfAny());
    expect(err.all.map((e) => [e.file, e.row])).toEqual([
      ['notes.csv', 2],
      ['notes.csv', 4],
      ['links.csv', 2],
    ]);
    expect(err.all[0]).toBe(err);
    expect(() => new PackageErrors().throwIfAny()).not.toThrow();
  });

  it(`keeps the first ${PACKAGE_ERRORS_KEPT}, counts the rest, and the 422 says how many more`, () => {
    const rows = Array.from({ length: PACKAGE_ERRORS_KEPT + 7 }, (_, i) => `bad${i}`).join('\n');
    const err = packageError(() => readNotes(buf(`key\n${rows}\n`)));
    expect(err.all).toHaveLength(PACKAGE_ERRORS_KEPT);
    expect(err.more).toBe(7);
    const answer = asValidationError(err) as ValidationFailedError;
    expect(answer).toBeInstanceOf(ValidationFailedError);
    expect(answer.errors).toHaveLength(PACKAGE_ERRORS_KEPT);
    expect(answer.errors[0]).toEqual({ field: 'notes.csv:2', detail: 'ключ «bad0» — не ключ Jira (ABC-123) и не временный ключ (new:N)' });
    expect(answer.message).toMatch(new RegExp(`^notes\\.csv, строка 2: ключ «bad0» .*; …и ещё ошибок: 7 \\(показаны первые ${PACKAGE_ERRORS_KEPT}\\) — исправьте эти и проверьте пакет снова$`));
  });

  it('one error alone: the detail is its text, as before', () => {
    const answer = asValidationError(packageError(() => readNotes(buf('key\nabc\n')))) as ValidationFailedError;
    expect(answer.message).toBe('notes.csv, строка 2: ключ «abc» — не ключ Jira (ABC-123) и не временный ключ (new:N)');
    expect(answer.errors).toEqual([{ field: 'notes.csv:2', detail: 'ключ «abc» — не ключ Jira (ABC-123) и не временный ключ (new:N)' }]);
  });
});
