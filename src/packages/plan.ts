/**
 * The plan of a planning package (SPEC 18): package + mirror view (+ known values, from the catalogue
 * when there is one) → the commands that make Jira match the package, in an order that works, and the
 * findings a person must see. Pure: no Nest, no database; the drift is the same comparison without
 * the commands.
 */
import type { Catalogue } from '@jira-hub/contracts';
import type { CommandType, Params } from '@jira-hub/contracts/catalogue';
import { boardWords } from '@jira-hub/contracts/russian';
import { catalogueBoardIds, isOpenSprint, isSymmetricLinkType, linkAsSubmitted, sprintsOnBoard } from '../catalogue/index.js';
import { comparableText, isJiraKey, isTempKey, shownText } from '../common/index.js';
import { type LinkRow, PackageError, PackageErrors, type PackageFile, translateType } from '../import/index.js';
import type { PackageMirrorIssue } from '../mirror/index.js';
import { inBacklog, mirrorShowsSprint } from '../queue/index.js';
import { RUSSIAN_COLUMN, type IssueRow, type WishField } from './issues-reader.js';
import { noOpenSprintOnBoard } from './plan-sprint.js';

export interface PlanMirror {
  /** an issue whose fields a row of issues.csv compares */
  issue(key: string): PackageMirrorIssue | undefined;
  /** whether the mirror has a key (an end of a link; the issue itself need not be read) */
  has(key: string): boolean;
  hasLink(source: string, target: string, linkType: string): boolean;
  /** the mirror's issues whose trimmed summary is exactly this one (the agent takes such an issue instead of creating one) */
  sameSummary?(summary: string): readonly string[];
  /** the refresh that found this key missing in Jira after the mirror read it (deleted or moved), if one did */
  gone?(key: string): number | undefined;
}

/** Values Jira accepts per column, from the catalogue (SPEC 16.1); a list left out (or empty) is not checked; only values a command would set are. */
export interface KnownValues {
  issue_types?: readonly string[];
  statuses?: readonly string[];
  priorities?: readonly string[];
  sprints?: readonly string[];
}

export interface PlanInput {
  issues: readonly IssueRow[];
  links: readonly LinkRow[];
  /** temp key → Jira key, the queue's mapping (SPEC 6.3) */
  tempKeys: ReadonlyMap<string, string>;
  /** settings link_types: package name → Jira link type */
  linkTypes: Readonly<Record<string, string>>;
  mirror: PlanMirror;
  known?: KnownValues;
  /**
   * The project's catalogue, for link types: a type written as Jira's name in another letter case or as
   * its outward or inward words reads as the submit reads it (checkLink: stored by its name, the ends
   * swapped for inward words), so that the plan compares with the mirror what the batch would ask for.
   */
  catalogue?: Catalogue | null;
  now: Date;
  /** temp key → the first unfinished batch (not the package's own) whose ensure_issue defines it, and the summary it creates */
  pendingTempKeys?: ReadonlyMap<string, { batchId: number; summary: string }>;
  /** the project the package's new issues go to: an issue of the mirror with the same summary matters only there */
  project?: string;
}

/** Where in the package a command or a finding comes from. */
export interface PackagePlace {
  file: PackageFile;
  row: number;
  column?: string;
}

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface PackageCommand {
  type: CommandType;
  params: Params;
  from: PackagePlace;
  changes: FieldChange[];
}

export type FindingCode = 'reversed_link' | 'unknown_key' | 'gone_from_jira' | 'issue_type_differs' | 'parent_differs' | 'sprint_board_unknown' | 'sprint_not_on_board' | 'summary_exists' | 'temp_key_pending';

export interface PackageFinding extends PackagePlace {
  code: FindingCode;
  /** Russian */
  detail: string;
}

/** One field of one issue where the mirror differs from the package (the plan's input, the drift's output). */
export interface FieldDifference {
  /** the key as the package writes it (a Jira key, or a temp key) */
  key: string;
  /** the Jira key, null for an issue not created yet */
  jira_key: string | null;
  row: number;
  field: WishField | 'issue';
  wanted: unknown;
  actual: unknown;
}

export interface LinkDifference {
  row: number;
  source: string;
  target: string;
  link_type: string;
  state: 'missing' | 'reversed';
}

export interface MirrorAge {
  /** the Jira keys the plan compared with the mirror */
  keys: string[];
  /** Jira keys the package names that the mirror lacks */
  missing_keys: string[];
  /** Jira keys a refresh no longer found in Jira after the mirror read them (deleted, or moved to another project) */
  gone_keys: string[];
  /** the oldest synced_at among the compared issues */
  oldest_synced_at: string | null;
  age_seconds: number | null;
}

export interface PackagePlan {
  commands: PackageCommand[];
  findings: PackageFinding[];
  differences: FieldDifference[];
  links: LinkDifference[];
  mirror: MirrorAge;
  /** the refresh of exactly the compared keys, to run first when the mirror is old; null when there are none */
  refresh: { type: 'refresh'; params: { keys: string[] } } | null;
  /** the package's temp keys an earlier batch already created (SPEC 6.3), with the issue each now stands for */
  resolved: { temp_key: string; key: string }[];
}

/** Keys by their number, as Jira numbers issues in order of creation: the oldest first. */
const byKeyNumber = (a: string, b: string) => Number(a.replace(/^.*-/, '')) - Number(b.replace(/^.*-/, '')) || (a < b ? -1 : a > b ? 1 : 0);

/** Jira Software's Epic Name field type (Data Center), by which it is known whatever its name on the site. */
const EPIC_NAME_SCHEMA = 'com.pyxis.greenhopper.jira:gh-epic-label';
const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;

/** `ensure_status` to one status: the hub stores the shortest known route as `path` at submit (SPEC 16.2). */
export const statusParams = (key: string, to: string): Params => ({ key, to });

/** The fields ensure_fields sets, with how each compares (SPEC 4: labels as sets, text as it is). */
const FIELD_WISHES = ['summary', 'duedate', 'labels', 'assignee', 'priority'] as const;

class Planner {
  private readonly rows = new Map<string, IssueRow>();
  /** temp keys this package creates (unresolved by the queue) */
  private readonly creates = new Set<string>();
  readonly out: PackagePlan = { commands: [], findings: [], differences: [], links: [], mirror: { keys: [], missing_keys: [], gone_keys: [], oldest_synced_at: null, age_seconds: null }, refresh: null, resolved: [] };
  /** temp key → the Jira key an earlier batch created it as, for every one the package names */
  private readonly earlier = new Map<string, string>();
  private readonly compared = new Set<string>();
  private readonly missing = new Set<string>();
  /** keys a refresh found gone from Jira */
  private readonly gone = new Set<string>();
  /** the links planned or compared so far, as submitted (a symmetric type's ends in order) */
  private readonly linkIds = new Set<string>();
  /** link ends the mirror has (their issues are not read) */
  private readonly linked = new Set<string>();
  /** every error of the package's rows found while planning: one answer names them all (decision 0132) */
  readonly errors = new PackageErrors();
  /** Jira key → the first row of that issue (by its Jira key, or by a temp key the hub has already created as it) */
  private readonly rowOfIssue = new Map<string, IssueRow>();

  constructor(private readonly input: PlanInput) {
    for (const r of input.issues) {
      this.rows.set(r.key, r);
      if (isTempKey(r.key) && !input.tempKeys.has(r.key)) this.creates.add(r.key);
      else if (isTempKey(r.key)) this.earlier.set(r.key, input.tempKeys.get(r.key)!);
    }
    this.oneRowPerIssue();
  }

  /**
   * One row per issue (SPEC 18), as the reader says of a key written twice: a temp key the hub has already
   * created and that issue's Jira key are one issue too, and two rows of it would ask for two things at
   * once (each plan would set one wish, then the other, and never settle). The later row is the error,
   * naming the earlier one.
   */
  private oneRowPerIssue(): void {
    const first = this.rowOfIssue;
    for (const r of this.input.issues) {
      const jira = isJiraKey(r.key) ? r.key : this.input.tempKeys.get(r.key);
      if (jira === undefined) continue;
      const earlier = first.get(jira);
      if (!earlier) {
        first.set(jira, r);
        continue;
      }
      const head = isTempKey(r.key) ? `временный ключ ${r.key} хаб уже создал как ${jira}, а задача ${jira}` : `задача ${jira}`;
      const alias = isTempKey(earlier.key) ? ` — под временным ключом ${earlier.key}${isTempKey(r.key) ? '' : `, который хаб уже создал как ${jira}`}` : '';
      this.errors.add(new PackageError('issues.csv', r.row, `${head} уже есть в строке ${earlier.row}${alias}: одна строка на задачу`, this.column(r, 'key')));
    }
  }

  private column(r: IssueRow, f: WishField | 'key'): string {
    return r.columns[f] ?? RUSSIAN_COLUMN[f];
  }

  /** The key a command names: a Jira key, a resolved temp key's Jira key, or a temp key this package creates; else an error, and undefined. */
  private resolve(key: string, place: PackagePlace): string | undefined {
    if (isJiraKey(key)) return key;
    const resolved = this.input.tempKeys.get(key);
    if (resolved) {
      this.earlier.set(key, resolved);
      return resolved;
    }
    if (this.creates.has(key)) return key;
    this.errors.add(
      new PackageError(
        place.file,
        place.row,
        `временный ключ ${key} не определён: его не создаёт ни одна строка issues.csv (с ключом ${key}), и раньше хаб его не создавал`,
        place.column,
      ),
    );
    return undefined;
  }

  private existing(key: string): PackageMirrorIssue | undefined {
    const found = this.input.mirror.issue(key);
    if (found) this.compared.add(key);
    else if (this.input.mirror.gone?.(key) !== undefined) this.gone.add(key);
    else this.missing.add(key);
    return found;
  }

  /** An end of a link: only whether the mirror has it. */
  private known(key: string): boolean {
    const found = this.input.mirror.has(key);
    if (found) this.linked.add(key);
    else if (this.input.mirror.gone?.(key) !== undefined) this.gone.add(key);
    else this.missing.add(key);
    return found;
  }

  /** A name as Jira writes it, when the catalogue lists one the same but for case and spaces around; else the name trimmed. */
  private jiraName(f: 'issue_type' | 'status' | 'priority' | 'sprint', value: string): string {
    const list = { issue_type: this.input.known?.issue_types, status: this.input.known?.statuses, priority: this.input.known?.priorities, sprint: this.input.known?.sprints }[f];
    return list?.find((x) => same(x, value)) ?? value.trim();
  }

  /** A value Jira must accept (a command sets it): among the catalogue's, when the catalogue lists them. */
  private allowed(r: IssueRow, f: 'issue_type' | 'status' | 'priority' | 'sprint', value: string): void {
    const list = { issue_type: this.input.known?.issue_types, status: this.input.known?.statuses, priority: this.input.known?.priorities, sprint: this.input.known?.sprints }[f];
    if (list === undefined || list.length === 0 || list.some((x) => same(x, value))) return;
    const what = { issue_type: 'тип задачи', status: 'статус', priority: 'приоритет', sprint: 'спринт (активный или будущий)' }[f];
    this.errors.add(new PackageError('issues.csv', r.row, `${what} «${shownText(value)}» Jira не знает; известны: ${list.join(', ')}`, this.column(r, f)));
  }

  /** Parents before children; a cycle of parents is an error naming the row where it closes (once per cycle). */
  orderNew(): IssueRow[] {
    const order: IssueRow[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (r: IssueRow, trail: string[]) => {
      const s = state.get(r.key);
      if (s === 'done') return;
      if (s === 'visiting') {
        const cycle = [...trail.slice(trail.indexOf(r.key)), r.key];
        this.errors.add(new PackageError('issues.csv', r.row, `цикл родителей: ${cycle.join(' → ')}`, this.column(r, 'parent')));
        return;
      }
      state.set(r.key, 'visiting');
      const parent = r.parent !== undefined ? this.rows.get(r.parent) : undefined;
      if (parent) visit(parent, [...trail, r.key]);
      state.set(r.key, 'done');
      if (this.creates.has(r.key)) order.push(r);
    };
    for (const r of this.input.issues) visit(r, []);
    return order;
  }

  private command(type: CommandType, params: Params, from: PackagePlace, changes: FieldChange[]): void {
    this.out.commands.push({ type, params, from, changes });
  }

  private differ(r: IssueRow, jiraKey: string | null, field: FieldDifference['field'], wanted: unknown, actual: unknown): FieldChange {
    this.out.differences.push({ key: r.key, jira_key: jiraKey, row: r.row, field, wanted, actual });
    return { field, from: actual, to: wanted };
  }

  private finding(r: IssueRow, f: WishField | 'key', code: FindingCode, detail: string): void {
    this.out.findings.push({ file: 'issues.csv', row: r.row, column: this.column(r, f), code, detail });
  }

  create(r: IssueRow): void {
    const place = { file: 'issues.csv' as const, row: r.row };
    this.allowed(r, 'issue_type', r.issue_type!);
    // The agent creates an issue only when none of the project has its summary (SPEC 4): it would take the
    // oldest such issue and change it by this row.
    const summary = comparableText(r.summary!);
    const project = this.input.project;
    const taken = (this.input.mirror.sameSummary?.(summary) ?? []).filter((k) => project === undefined || k.startsWith(`${project}-`)).sort(byKeyNumber);
    const row = taken.length ? this.rowOfIssue.get(taken[0]!) : undefined;
    if (row) {
      // That issue is another row's: the agent would change it by both rows and the package would hold one issue
      // twice (every later plan and its drift refuse that, as a key written twice): one row per issue (decision 1460).
      const alias = isTempKey(row.key) ? ` (под временным ключом ${row.key}, который хаб уже создал как ${taken[0]})` : '';
      this.errors.add(
        new PackageError(
          'issues.csv',
          r.row,
          `${r.key} не создастся: в зеркале уже есть задача с темой «${summary}» — ${taken[0]}, агент возьмёт её и изменит по этой строке, а задача ${taken[0]} уже есть в строке ${row.row}${alias}: одна строка на задачу — дайте строке ${r.key} другую тему или уберите её`,
          this.column(r, 'summary'),
        ),
      );
    } else if (taken.length) {
      const which = taken.length === 1 ? `задача с темой «${summary}»: ${taken[0]}` : `задачи с темой «${summary}»: ${taken.join(', ')}`;
      this.finding(
        r,
        'summary',
        'summary_exists',
        `в зеркале уже есть ${which} — ${r.key} не создастся, агент возьмёт ${taken[0]} и изменит её по этой строке; для новой задачи дайте строке другую тему, а чтобы менять эту, напишите в строке её ключ`,
      );
    }
    // A temp key an unfinished batch of someone else defines with another summary: this row would make a second issue.
    const pending = this.input.pendingTempKeys?.get(r.key);
    if (pending !== undefined && comparableText(pending.summary) !== summary) {
      this.finding(
        r,
        'key',
        'temp_key_pending',
        `временный ключ ${r.key} уже создаёт пакет команд #${pending.batchId} (тема «${pending.summary}»), он ещё не выполнен: этот план создал бы вторую задачу — дождитесь пакета #${pending.batchId} (или отмените его) и постройте план снова`,
      );
    }
    // The type as Jira writes it (`task` is sent as `Task`): the checks refuse another letter case (SPEC 16.2).
    const params: Params = { temp_key: r.key, issue_type: this.jiraName('issue_type', r.issue_type!), summary: r.summary };
    if (r.parent !== undefined) params.parent = this.resolve(r.parent, { ...place, column: this.column(r, 'parent') }) ?? r.parent;
    const epicName = this.epicNameField(r.issue_type!);
    if (epicName) params.fields = { [epicName]: r.summary };
    this.command('ensure_issue', params, place, [this.differ(r, null, 'issue', r.summary, null)]);
  }

  /** ensure_fields, ensure_status and ensure_sprint of one row, for what differs (a new issue: every wish). */
  update(r: IssueRow): void {
    const place = { file: 'issues.csv' as const, row: r.row };
    const isNew = this.creates.has(r.key);
    const key = isNew ? r.key : this.resolve(r.key, { ...place, column: this.column(r, 'key') });
    if (key === undefined) return;
    const jiraKey = isNew ? null : key;
    const m = isNew ? undefined : this.existing(key);
    if (!isNew && !m) {
      const run = this.input.mirror.gone?.(key);
      if (run !== undefined) this.finding(r, 'key', 'gone_from_jira', `задачи ${key} в Jira больше нет: Jira её не нашла (чтение #${run} в /sync-runs; удалена, перенесена в другой проект или скрыта от агента); строку не сравниваем — уберите её из пакета или создайте задачу заново`);
      else this.finding(r, 'key', 'unknown_key', `задачи ${key} нет в зеркале хаба: сравнить не с чем; сначала обновите её в зеркале`);
      return;
    }
    if (m) {
      if (r.issue_type !== undefined && !same(r.issue_type, m.issue_type)) {
        this.differ(r, key, 'issue_type', r.issue_type, m.issue_type);
        this.finding(r, 'issue_type', 'issue_type_differs', `у ${key} в Jira тип «${m.issue_type ?? '—'}», в пакете «${shownText(r.issue_type)}»: тип существующей задачи хаб не меняет, поменяйте его в Jira вручную`);
      }
      if (r.parent !== undefined) {
        const parent = this.resolve(r.parent, { ...place, column: this.column(r, 'parent') });
        if (parent !== undefined && parent !== m.parent) {
          this.differ(r, key, 'parent', parent, m.parent);
          this.finding(r, 'parent', 'parent_differs', `у ${key} в Jira родитель ${m.parent ?? 'не задан'}, в пакете ${parent}: родителя существующей задачи хаб не меняет, поменяйте его в Jira вручную`);
        }
      }
    }
    const fields: Params = {};
    const changes: FieldChange[] = [];
    for (const f of FIELD_WISHES) {
      if (f === 'summary' && isNew) continue; // ensure_issue sets it
      const wanted = r[f];
      if (wanted === undefined) continue;
      const actual = m ? m[f] : null;
      // A summary compares in one Unicode spelling (NFC, as the mirror keeps it): a decomposed «й» typed in a file is the same text.
      // A priority is a name of Jira's, matched as a status or a sprint is (any case, spaces around); an assignee's id is trimmed.
      const differs =
        f === 'labels'
          ? !sameSet(wanted as string[], (actual as string[] | null) ?? [])
          : f === 'summary'
            ? comparableText(String(wanted)) !== comparableText(String(actual ?? ''))
            : f === 'priority'
              ? !same(String(wanted), actual as string | null)
              : f === 'assignee'
                ? String(wanted).trim() !== String(actual ?? '').trim()
                : wanted !== actual;
      if (!differs) continue;
      if (f === 'priority') this.allowed(r, f, wanted as string);
      // Sent as Jira writes it: a priority by the catalogue's name (the case of the file is no mistake), an assignee trimmed.
      fields[f] = f === 'priority' ? this.jiraName('priority', String(wanted)) : f === 'assignee' ? String(wanted).trim() : wanted;
      changes.push(this.differ(r, jiraKey, f, wanted, actual));
    }
    if (changes.length) this.command('ensure_fields', { key, ...fields }, place, changes);
    if (r.status !== undefined && (isNew || !same(r.status, m!.status))) {
      this.allowed(r, 'status', r.status);
      this.command('ensure_status', statusParams(key, this.jiraName('status', r.status)), { ...place, column: this.column(r, 'status') }, [this.differ(r, jiraKey, 'status', r.status, m?.status ?? null)]);
    }
    if (r.sprint !== undefined) this.sprint({ ...r, sprint: r.sprint }, key, jiraKey, m);
  }

  /**
   * ensure_sprint of one row, when the mirror does not show the issue in the row's sprint (of the row's board,
   * when it names one); `m`: the mirror's issue, undefined for a new one.
   */
  private sprint(r: IssueRow & { sprint: string }, key: string, jiraKey: string | null, m: PackageMirrorIssue | undefined): void {
    const place = { file: 'issues.csv' as const, row: r.row, column: this.column(r, 'sprint') };
    const board = r.board === undefined ? undefined : /^[1-9][0-9]*$/.test(r.board) ? Number(r.board) : r.board;
    // A closed sprint only is the backlog (decision 1434): its name is the row's sprint only when no open sprint
    // the catalogue lists has that name (an older export plans as it is); else the row asks for that open one.
    const backlog = m !== undefined && inBacklog(m);
    const sameName = m !== undefined && same(r.sprint, m.sprint) && !(backlog && (this.input.known?.sprints ?? []).some((s) => same(s, r.sprint)));
    // The same name with a board named: which board's sprint the issue is in, by the sprint's id where the
    // mirror knows it (decision 1430; the rule of the checks and of revert); undefined: the mirror cannot tell.
    const catalogue = this.input.catalogue;
    const shows =
      !sameName || board === undefined
        ? undefined
        : mirrorShowsSprint(m!, { name: m!.sprint, board }, {
            sprintsOnBoard: (b, name) => sprintsOnBoard(catalogue, b, name),
            boardIds: (b) => catalogueBoardIds(catalogue, b),
            isOpenSprint: (id) => isOpenSprint(catalogue, id),
          });
    if (sameName && (board === undefined || shows === true)) return;
    // Without the sprint's id (an older agent refreshed the issue), a name on several boards is Jira's to settle (decision 1423).
    const boards = sameName && shows === undefined ? this.boardsWithSprint(r.sprint) : [];
    if (sameName && shows === undefined && boards.length < 2) return;
    // A board with no open sprint of the name: Jira refuses the move (the checks would, after approval), so no
    // command and the row is named (decision 1435) — by a catalogue trusted for values (`known`: fresh). A name
    // Jira knows on no board that the mirror does not show either stays the package's error (allowed).
    const knownName = (this.input.known?.sprints ?? []).some((s) => same(s, r.sprint)) || same(r.sprint, m?.sprint);
    const refused = board !== undefined && catalogue && this.input.known && knownName ? noOpenSprintOnBoard(catalogue, board, this.jiraName('sprint', r.sprint), key, m) : undefined;
    if (refused !== undefined) {
      this.finding(r, 'board', 'sprint_not_on_board', refused);
      this.differ(r, jiraKey, 'sprint', r.sprint, backlog ? null : (m?.sprint ?? null));
      return;
    }
    this.allowed(r, 'sprint', r.sprint);
    const params: Params = { key, sprint: this.jiraName('sprint', r.sprint) };
    if (board !== undefined) params.board = board;
    let change: FieldChange;
    if (!sameName || backlog) change = this.differ(r, jiraKey, 'sprint', r.sprint, backlog ? null : (m?.sprint ?? null));
    else if (shows === false) {
      // The boards as the catalogue names them (the row's own name for its board; «?»: the mirror does not say);
      // the issue's own sprint on that very board is one the catalogue no longer lists open: closed since.
      const own = m!.sprint_board_id ?? null;
      const closed = m!.sprint_id != null && isOpenSprint(catalogue, m!.sprint_id) === false ? ', закрыт' : '';
      change = this.differ(r, jiraKey, 'sprint', `${r.sprint} (${boardWords(board!, catalogue?.boards)})`, `${m!.sprint} (${own === null ? 'доска ?' : boardWords(own, catalogue?.boards)}${closed})`);
    } else {
      change = { field: 'sprint', from: m!.sprint, to: r.sprint };
      this.finding(
        r,
        'sprint',
        'sprint_board_unknown',
        `${jiraKey}: спринт «${shownText(r.sprint)}» есть на нескольких досках (${boards.map((b) => `«${b}»`).join(', ')}), а зеркало знает у задачи только имя спринта, не его id (её обновлял агент старой версии) — в каком из них она, видно лишь в Jira: ensure_sprint сверит и перенесёт её в спринт доски «${shownText(r.board ?? '')}», если она не там`,
      );
    }
    this.command('ensure_sprint', params, place, [change]);
  }

  /**
   * Jira Data Center's «Epic Name»: required at an epic's create, and no column of issues.csv holds it. The
   * package's epic gets its summary there, as Jira Cloud did when it dropped the field (decision 1424). Only
   * when the catalogue's create screen of that type requires that field with no default: known by its type
   * (Jira Software's epic label), whatever the site calls it, else by its English name.
   */
  private epicNameField(typeName: string): string | undefined {
    const catalogue = this.input.catalogue;
    const type = catalogue?.issue_types.find((t) => same(t.name, typeName));
    if (!catalogue || !type) return undefined;
    const isEpicName = (f: { field_id: string; name: string }) =>
      catalogue.fields.find((c) => c.id === f.field_id)?.schema?.custom === EPIC_NAME_SCHEMA || same(f.name, 'Epic Name');
    return catalogue.per_type[type.id]?.create.find((f) => f.required && !f.has_default && isEpicName(f))?.field_id;
  }

  /** The boards (by name) with a sprint of this name in the catalogue, each once. */
  private boardsWithSprint(name: string): string[] {
    const catalogue = this.input.catalogue;
    if (!catalogue) return [];
    const boardName = new Map(catalogue.boards.map((b) => [b.id, b.name]));
    return [...new Set(catalogue.sprints.filter((s) => same(s.name, name)).map((s) => boardName.get(s.board_id) ?? String(s.board_id)))];
  }

  link(l: LinkRow): void {
    if (l.from === '' || l.to === '') return; // SPEC 8: a row with an empty end is skipped
    const col = (f: 'from' | 'to') => (f === 'from' ? 'Откуда' : 'Куда');
    const ends = { source: this.resolve(l.from, { file: 'links.csv', row: l.row, column: col('from') }), target: this.resolve(l.to, { file: 'links.csv', row: l.row, column: col('to') }) };
    if (ends.source === undefined || ends.target === undefined) return;
    const { source, target, linkType } = linkAsSubmitted(this.input.catalogue, ends.source, ends.target, translateType(l.type, this.input.linkTypes));
    // The same link written twice — by its inward words the other way round, or a symmetric type either way — is one link.
    const pair = isSymmetricLinkType(this.input.catalogue, linkType) ? [source, target].sort() : [source, target];
    const id = `${pair.join('\u0000')}\u0000${linkType.toLowerCase()}`;
    if (this.linkIds.has(id)) return;
    this.linkIds.add(id);
    const place = { file: 'links.csv' as const, row: l.row };
    const unknown = [source, target].filter((k) => isJiraKey(k) && !this.known(k));
    const gone = unknown.filter((k) => this.input.mirror.gone?.(k) !== undefined);
    if (gone.length) {
      this.out.findings.push({ ...place, code: 'gone_from_jira', detail: `задач ${gone.join(', ')} в Jira больше нет (Jira их не нашла): связь не создать — уберите строку из пакета` });
      return;
    }
    if (unknown.length) {
      // No blind link: the mirror must show both ends (the refresh offered first reads them).
      this.out.findings.push({ ...place, code: 'unknown_key', detail: `задач ${unknown.join(', ')} нет в зеркале хаба: связь не сравнить; сначала обновите их в зеркале` });
      return;
    }
    if (isJiraKey(source) && isJiraKey(target)) {
      if (this.input.mirror.hasLink(source, target, linkType)) return;
      if (this.input.mirror.hasLink(target, source, linkType)) {
        // A symmetric type (Relates) either way is the same link: the agent counts it as there.
        if (isSymmetricLinkType(this.input.catalogue, linkType)) return;
        this.out.links.push({ row: l.row, source, target, link_type: linkType, state: 'reversed' });
        this.out.findings.push({
          ...place,
          code: 'reversed_link',
          detail: `в Jira связь ${linkType} идёт в обратную сторону: ${target} → ${source}, а в пакете ${source} → ${target}; хаб её не переворачивает — проверьте, какая верна`,
        });
        return;
      }
    }
    this.out.links.push({ row: l.row, source, target, link_type: linkType, state: 'missing' });
    this.command('ensure_link', { source, target, link_type: linkType }, place, [{ field: 'link', from: null, to: `${source} ${linkType} ${target}` }]);
  }

  finish(): PackagePlan {
    const keys = [...new Set([...this.compared, ...this.linked])].sort();
    let oldest: string | null = null;
    for (const k of this.compared) {
      const at = this.input.mirror.issue(k)?.synced_at ?? null;
      if (at !== null && (oldest === null || at < oldest)) oldest = at;
    }
    const missing = [...this.missing].filter((k) => !this.compared.has(k) && !this.linked.has(k)).sort();
    this.out.mirror = {
      keys,
      missing_keys: missing,
      gone_keys: [...this.gone].sort(),
      oldest_synced_at: oldest,
      age_seconds: oldest === null ? null : Math.max(0, Math.round((this.input.now.getTime() - Date.parse(oldest)) / 1000)),
    };
    const refreshKeys = [...keys, ...missing];
    this.out.refresh = refreshKeys.length ? { type: 'refresh', params: { keys: refreshKeys } } : null;
    this.out.resolved = [...this.earlier].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([temp_key, key]) => ({ temp_key, key }));
    return this.out;
  }
}

/**
 * Only the differences, in an order that works: ensure_issue for rows whose temp key the queue has not
 * resolved (parents before children), then per row its fields, status and sprint, then the links
 * (both ends exist by then). A package Jira already matches gives no commands.
 */
export function planPackage(input: PlanInput): PackagePlan {
  const p = new Planner(input);
  for (const r of p.orderNew()) p.create(r);
  for (const r of input.issues) p.update(r);
  const seen = new Set<string>();
  for (const l of input.links) {
    const id = `${l.from}\u0000${l.to}\u0000${translateType(l.type, input.linkTypes)}`;
    if (seen.has(id)) continue;
    seen.add(id);
    p.link(l);
  }
  p.errors.throwIfAny();
  return p.finish();
}

/**
 * The Jira keys a package names, temp keys through the queue's mapping: `issues` — the rows' issues, whose
 * fields the plan compares (read whole); `ends` — every key a row or a link names (looked up, with the
 * links that start there).
 */
export function keysToRead(issues: readonly IssueRow[], links: readonly LinkRow[], tempKeys: ReadonlyMap<string, string>): { issues: string[]; ends: string[] } {
  const jira = (keys: string[]) => [...new Set(keys.map((k) => tempKeys.get(k) ?? k).filter(isJiraKey))];
  return { issues: jira(issues.map((r) => r.key)), ends: jira([...issues.flatMap((r) => [r.key, r.parent ?? '']), ...links.flatMap((l) => [l.from, l.to])]) };
}
