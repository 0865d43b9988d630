/**
 * The round trip of SPEC 18 (pure parts): the JQL an export understands over the mirror, and the mirror's
 * issues, links and notes written as a planning package (issues.csv, links.csv, notes.csv) that reads
 * back as exactly what the mirror holds.
 */
import { ValidationFailedError } from '../common/index.js';
import { spreadsheetCell } from '../import/index.js';
import type { ExportFilter, ExportNote, MirrorLink, PackageMirrorIssue } from '../mirror/index.js';
import { splitLabels } from './issues-reader.js';
import { hasLineBreak } from '@jira-hub/contracts/catalogue';
import { catalogueBoardIds } from '../catalogue/index.js';
import { inBacklog } from '../queue/index.js';
import type { Catalogue } from '@jira-hub/contracts';

const UNDERSTOOD = 'project = KEY, key = K / key in (K1, K2), status = …, sprint = …, issuetype = …, assignee = …, labels = … через AND; ORDER BY не учитывается';

/** A JQL value: a bare word or a quoted string. */
const VALUE = String.raw`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,()"']+`;
const unquote = (v: string) => (/^["']/.test(v) ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v);

const FIELDS: Record<string, keyof ExportFilter> = {
  project: 'project',
  key: 'keys',
  issuekey: 'keys',
  status: 'status',
  sprint: 'sprint',
  issuetype: 'issue_type',
  type: 'issue_type',
  assignee: 'assignee',
  labels: 'label',
  label: 'label',
};

/**
 * The mirror has no JQL engine: an export takes the conjunction of simple clauses a team writes to name
 * a project or a sprint. Anything else → 422 naming what is understood.
 */
export function parseExportJql(jql: string): ExportFilter {
  const text = jql.replace(/\s+ORDER\s+BY\s+.*$/is, '').trim();
  if (text === '') throw new ValidationFailedError(`пустой JQL: выгрузка понимает ${UNDERSTOOD}`);
  const filter: ExportFilter = {};
  const clause = new RegExp(String.raw`^\s*(\w+)\s*(?:(=)\s*(${VALUE})|(in)\s*\(\s*((?:${VALUE})(?:\s*,\s*(?:${VALUE}))*)\s*\))\s*`, 'i');
  let rest = text;
  for (;;) {
    const fn = /^\s*\w+\s*(?:=|!=|in|not\s+in)\s*(\w+)\s*\(/i.exec(rest);
    if (fn) {
      throw new ValidationFailedError(
        `JQL «${jql}»: функций JQL (${fn[1]}() и других) выгрузка из зеркала не понимает — зеркало не знает, что они значат в Jira; назовите значение прямо (assignee = <id пользователя>, sprint = "Спринт 2")`,
      );
    }
    const m = clause.exec(rest);
    const field = m ? FIELDS[m[1].toLowerCase()] : undefined;
    if (!m || !field || (m[4] && field !== 'keys')) {
      throw new ValidationFailedError(`JQL «${jql}» выгрузка из зеркала не понимает (с «${rest.trim().slice(0, 40)}»): она понимает ${UNDERSTOOD}`);
    }
    if (field === 'keys') {
      const keys = m[4] ? (m[5].match(new RegExp(VALUE, 'g')) ?? []).map(unquote) : [unquote(m[3])];
      filter.keys = [...(filter.keys ?? []), ...keys.map((k) => k.toUpperCase())];
    } else {
      const value = unquote(m[3]);
      filter[field] = field === 'project' ? value.toUpperCase() : value;
    }
    rest = rest.slice(m[0].length);
    if (rest.trim() === '') return filter;
    const and = /^AND\s+/i.exec(rest);
    if (!and) throw new ValidationFailedError(`JQL «${jql}»: между условиями выгрузка понимает только AND (с «${rest.trim().slice(0, 40)}»)`);
    rest = rest.slice(and[0].length);
  }
}

/**
 * One CSV cell: a value a spreadsheet would run as a formula behind an apostrophe (spreadsheetCell, decision
 * 1500); quoted when it holds the delimiter, a quote, a line break or spaces at its ends.
 */
function cell(value: string | null | undefined): string {
  const v = spreadsheetCell(value ?? '');
  return /[;"\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

const csv = (header: string[], rows: (string | null)[][]) => `${[header, ...rows].map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`;

export interface ExportedPackage {
  'issues.csv': string;
  'links.csv': string;
  'notes.csv': string;
}

/**
 * The issues whose labels a package cannot hold: a label with a comma or a space (Jira Data Center
 * and the API let one through) would read back as two labels, and an apply would then rewrite the
 * issue's labels in Jira. Their cell «Метки» is left empty (no wish: the package leaves their labels
 * as they are) and the export says so.
 */
export function unwritableLabels(issues: readonly PackageMirrorIssue[]): string[] {
  const unwritable = (label: string) => {
    const [first, ...more] = splitLabels(label);
    return more.length > 0 || first !== label;
  };
  return issues.filter((i) => i.labels.some(unwritable)).map((i) => i.key);
}

/**
 * The issues whose summary a package cannot hold: one with a line break (made before Jira refused them,
 * or by an import) would be refused by the plan's checks (summary_line_break). Their «Тема» is left
 * empty (no wish) and the export says so, as for labels.
 */
export function unwritableSummaries(issues: readonly PackageMirrorIssue[]): string[] {
  return issues.filter((i) => hasLineBreak(i.summary ?? '')).map((i) => i.key);
}

/**
 * The «Доска» an issue's row needs (decision 1430): where the catalogue lists sprints of the issue's sprint name
 * on more than one board, the name alone is ambiguous — the plan's checks refuse an ensure_sprint by it, and plan
 * and drift could not tell the two sprints apart — so the board of the sprint the mirror knows the issue is in
 * (its sprint id among those sprints) is written: its name, or its id when two boards share the name. Null
 * otherwise: a name one board has, a mirror row without the sprint's id (an older agent's refresh), no catalogue.
 */
export function boardOfSprint(catalogue: Pick<Catalogue, 'boards' | 'sprints'> | null | undefined): (issue: PackageMirrorIssue) => string | null {
  return (issue) => {
    if (!catalogue || issue.sprint === null || issue.sprint_id === null || issue.sprint_id === undefined) return null;
    const named = catalogue.sprints.filter((s) => s.name === issue.sprint);
    if (new Set(named.map((s) => s.board_id)).size < 2) return null;
    const sprint = named.find((s) => s.id === Number(issue.sprint_id));
    if (!sprint) return null;
    // The name when it names this board alone, as the checks read a `board` (catalogueBoardIds); else the id.
    const board = catalogue.boards.find((b) => b.id === sprint.board_id);
    return board && catalogueBoardIds(catalogue, board.name)?.length === 1 ? board.name : String(sprint.board_id);
  };
}

/**
 * The package files (Russian headers, `;`, as a spreadsheet in a Russian locale saves them). A sub-task's
 * «Спринт» is left empty (`subtaskTypes`: the catalogue's sub-task types, in lower case): Jira moves a
 * sub-task with its parent and refuses to put one in a sprint, so a sprint written there could only be
 * refused by the plan, or read as drift once the parent moves. An issue in the backlog (inBacklog: its sprint
 * closed, decision 1434) has no «Спринт» either: a closed sprint's name could only be refused as a value to
 * return to. «Доска»: `boardOf` (boardOfSprint), only beside a sprint written.
 */
export function writePackage(
  issues: readonly PackageMirrorIssue[],
  links: readonly MirrorLink[],
  notes: readonly ExportNote[],
  subtaskTypes: ReadonlySet<string> = new Set(),
  boardOf: (issue: PackageMirrorIssue) => string | null = () => null,
): ExportedPackage {
  const leftOut = new Set(unwritableLabels(issues));
  const summaryLeftOut = new Set(unwritableSummaries(issues));
  // A closed sprint only is the backlog (decision 1434): no wish, as no sprint is; its name would read as an open sprint's.
  const sprintOf = (i: PackageMirrorIssue) => (subtaskTypes.has((i.issue_type ?? '').toLowerCase()) || inBacklog(i) ? null : i.sprint);
  return {
    'issues.csv': csv(
      ['Ключ', 'Тип', 'Тема', 'Родитель', 'Срок', 'Метки', 'Исполнитель', 'Приоритет', 'Статус', 'Спринт', 'Доска'],
      issues.map((i) => {
        const sprint = sprintOf(i);
        return [i.key, i.issue_type, summaryLeftOut.has(i.key) ? null : i.summary, i.parent, i.duedate, leftOut.has(i.key) ? null : i.labels.join(' '), i.assignee, i.priority, i.status, sprint, sprint === null ? null : boardOf(i)];
      }),
    ),
    'links.csv': csv(
      ['Откуда', 'Тип', 'Куда', 'Пояснение (внутр.)'],
      links.map((l) => [l.source_key, l.link_type, l.target_key, null]),
    ),
    'notes.csv': csv(
      ['Ключ', 'Факт. статус', 'Комментарий (внутр.)'],
      notes.map((n) => [n.key, n.fact_status, n.comment]),
    ),
  };
}
