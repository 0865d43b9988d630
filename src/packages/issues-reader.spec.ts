import { describe, expect, it } from '@jest/globals';
import { PackageError } from '../import/index.js';
import { readIssues, splitLabels } from './issues-reader.js';

const buf = (text: string) => Buffer.from(text, 'utf8');

function packageError(fn: () => unknown): PackageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PackageError);
    return err as PackageError;
  }
  throw new Error('expected a PackageError, nothing was thrown');
}

const RU = 'Ключ;Тип;Тема;Родитель;Срок;Метки;Исполнитель;Приоритет;Статус;Спринт;Доска';
const EN = 'key,issue_type,summary,parent,duedate,labels,assignee,priority,status,sprint,board';

describe('readIssues: header names (SPEC 18)', () => {
  const wanted = {
    row: 2,
    key: 'new:1',
    issue_type: 'Task',
    summary: 'Отчёт',
    parent: 'AURORA-1',
    duedate: '2026-12-15',
    labels: ['finance', 'q4'],
    assignee: 'ivanov',
    priority: 'High',
    status: 'In Progress',
    sprint: 'Спринт 2',
    board: 'AURORA board',
  };
  it.each([
    ['Russian, semicolon', `${RU}\nnew:1;Task;Отчёт;AURORA-1;2026-12-15;finance q4;ivanov;High;In Progress;Спринт 2;AURORA board\n`],
    ['English, comma', `${EN}\nnew:1,Task,Отчёт,AURORA-1,2026-12-15,"finance,q4",ivanov,High,In Progress,Спринт 2,AURORA board\n`],
    ['Russian in upper case, padded, with BOM', `\uFEFF КЛЮЧ ;ТИП;тема;Родитель;СРОК;метки;Исполнитель;Приоритет;Статус;Спринт;Доска\nnew:1;Task;Отчёт;AURORA-1;2026-12-15;finance, q4;ivanov;High;In Progress;Спринт 2;AURORA board\n`],
  ])('%s', (_name, text) => {
    const [row] = readIssues(buf(text));
    const { columns: _columns, ...rest } = row;
    expect(rest).toEqual(wanted);
  });

  it('remembers each column as the header writes it', () => {
    expect(readIssues(buf(`${RU}\nAURORA-1;;;;;;;;;;\n`))[0].columns).toMatchObject({ key: 'Ключ', duedate: 'Срок', labels: 'Метки' });
  });
});

describe('readIssues: an empty cell is no wish', () => {
  it('an empty cell and a missing column both leave the field out', () => {
    const rows = readIssues(buf(`key,duedate,status\nAURORA-1,,Done\nAURORA-2,2026-12-01,\n`));
    expect(rows.map(({ columns: _c, ...r }) => r)).toEqual([
      { row: 2, key: 'AURORA-1', status: 'Done' },
      { row: 3, key: 'AURORA-2', duedate: '2026-12-01' },
    ]);
  });
});

describe('readIssues: text in NFC (decision 1426)', () => {
  it('a decomposed header, summary and label are read composed: the same text to Jira as to a person', () => {
    const nfd = (t: string) => t.normalize('NFD');
    const rows = readIssues(buf(nfd('Ключ;Тип;Тема;Метки\nnew:1;Task;Подготовить квартальный отчёт;отчётность финансы\n')));
    expect(rows.map(({ columns: _c, ...r }) => r)).toEqual([{ row: 2, key: 'new:1', issue_type: 'Task', summary: 'Подготовить квартальный отчёт', labels: ['отчётность', 'финансы'] }]);
    expect(rows[0].summary).toBe('Подготовить квартальный отчёт'.normalize('NFC'));
    expect(rows[0].summary).not.toBe(nfd('Подготовить квартальный отчёт'));
  });

  it('a character that composes into the delimiter (U+037E → «;») stays inside its cell', () => {
    const rows = readIssues(buf('Ключ;Тема\nnew:1;Вопрос\u037E ответ\n'.replace('Ключ;Тема\nnew:1;', 'Ключ;Тип;Тема\nnew:1;Task;')));
    expect(rows.map((r) => r.summary)).toEqual(['Вопрос; ответ']);
  });
});

describe('splitLabels: spaces or commas', () => {
  it.each([
    ['a b', ['a', 'b']],
    ['a,b', ['a', 'b']],
    [' a ,  b,,c ', ['a', 'b', 'c']],
    ['a\tb a', ['a', 'b']],
  ])('%j → %j', (cell, labels) => {
    expect(splitLabels(cell)).toEqual(labels);
  });
});

describe('readIssues: errors name the file, the row and the column in Russian', () => {
  it.each([
    ['a bad date', `${RU}\nAURORA-1;;;;2026-02-30;;;;;;\n`, 2, 'Срок', 'не дата'],
    ['a bad key', `key,summary\nABC,x\n`, 2, 'key', 'не ключ Jira'],
    ['an empty key', `Ключ;Тема\nAURORA-1;a\n;b\n`, 3, 'Ключ', 'пустой ключ'],
    ['a key twice', `Ключ;Тема\nAURORA-1;a\nAURORA-1;b\n`, 3, 'Ключ', 'уже есть в строке 2'],
    ['a bad parent', `${RU}\nAURORA-1;;;родитель;;;;;;;\n`, 2, 'Родитель', 'не ключ Jira'],
    ['its own parent', `${RU}\nnew:1;Task;x;new:1;;;;;;;\n`, 2, 'Родитель', 'самой себя'],
    ['a new issue without a summary', `${RU}\nnew:1;Task;;;;;;;;;\n`, 2, 'Тема', 'нужна тема'],
    ['a new issue without a type', `Ключ;Тема\nnew:1;Отчёт\n`, 2, 'Тип', 'нужен тип'],
    ['a board without a sprint', `${RU}\nAURORA-1;;;;;;;;;;AURORA board\n`, 2, 'Доска', 'без спринта'],
  ])('%s', (_name, text, row, column, words) => {
    const err = packageError(() => readIssues(buf(text)));
    expect([err.file, err.row, err.column]).toEqual(['issues.csv', row, column]);
    expect(err.message).toContain(`issues.csv, строка ${row}, столбец «${column}»`);
    expect(err.message).toContain(words);
  });

  it('a header without the key column', () => {
    const err = packageError(() => readIssues(buf('Тема;Срок\nx;2026-01-01\n')));
    expect(err.message).toBe('issues.csv, строка 1: нет обязательных столбцов: «Ключ» (key)');
  });
});

describe('readIssues: every bad cell of every row at once (decision 0132)', () => {
  it('the first error thrown carries each one; a bad cell is not also reported as missing', () => {
    const text = `${RU}\nnew:1;;${'т'.repeat(256)};new:1;31.12.2026;;;;;;Доска\nA 2;Task;x;;;;;;;;\nnew:1;Task;y;;;;;;;;`;
    const err = packageError(() => readIssues(buf(text)));
    expect(err.problem).toBe('тема длиннее 255 символов (256)');
    expect(err.all.map((e) => [e.row, e.column, e.problem])).toEqual([
      [2, 'Тема', 'тема длиннее 255 символов (256)'],
      [2, 'Родитель', 'задача new:1 не может быть родителем самой себя'],
      [2, 'Срок', '«31.12.2026» — не дата: нужна дата вида 2026-12-31 (ГГГГ-ММ-ДД)'],
      [2, 'Тип', 'новой задаче new:1 нужен тип (Task, Story, Epic, Sub-task…)'],
      [2, 'Доска', 'доска указана без спринта: она нужна только чтобы выбрать спринт'],
      [3, 'Ключ', '«A 2» — не ключ Jira (ABC-123) и не временный ключ (new:N)'],
      [4, 'Ключ', 'ключ new:1 уже есть в строке 2: одна строка на задачу'],
    ]);
    expect(err.more).toBe(0);
  });
});

describe('readIssues: a summary as Jira counts it (UTF-16 units: an emoji counts twice)', () => {
  const emoji = (n: number) => '\u{1F600}'.repeat(n);
  it.each([
    ['a new issue (ensure_issue)', 'new:701;Task'],
    ['an existing issue (ensure_fields)', 'AURORA-1;'],
  ])('%s: 130 emoji are 260 units → refused, saying how Jira counts; 255 units with emoji in them pass', (_name, start) => {
    const err = packageError(() => readIssues(buf(`Ключ;Тип;Тема\n${start};${emoji(130)}\n`)));
    expect([err.row, err.column, err.problem]).toEqual([2, 'Тема', 'тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 260']);
    expect(readIssues(buf(`Ключ;Тип;Тема\n${start};${emoji(127)}!\n`))[0].summary).toBe(`${emoji(127)}!`);
    expect(packageError(() => readIssues(buf(`Ключ;Тип;Тема\n${start};${emoji(127)}!!\n`))).problem).toBe('тема длиннее 255 знаков, как их считает Jira (эмодзи — за два): 256');
  });

  it('a summary of two lines (a quoted cell with a line break) is refused: Jira would answer 400', () => {
    const err = packageError(() => readIssues(buf('Ключ;Тип;Тема\nnew:1;Task;"первая\nвторая"\n')));
    expect([err.row, err.column, err.problem]).toEqual([2, 'Тема', 'тема — одна строка: в Jira у задачи не бывает темы с переводом строки']);
  });
});
