/**
 * The checks of a plan (SPEC 16.2): every command of a batch body against the command catalogue's
 * rules, Jira's limits, the catalogue of the project's configuration and the mirror — in one pass,
 * every finding at once, each with its 1-based `seq`, a Russian detail and, where one helps, a
 * suggestion. Also the form each command is stored in (a link type by its Jira name, the route of an
 * `ensure_status {to}`) and a verdict per command. Pure: the dry run, the submit and (through the REST
 * API) the MCP tools all call this one function. The command catalogue's own rules are Queue's and are
 * passed in (`CommandRules`), as Catalogue sits below Queue.
 */
import type { Catalogue, CheckVerdict, CommandType, Finding } from '@jira-hub/contracts';
import { comparableText, eachInSlices, isJiraKey, isTempKey, mapInSlices, shownText } from '../common/index.js';
import { goneWhy, type MirrorLookup } from '../mirror/index.js';
import { byJiraName, checkContent, type CommandCheck } from './content-checks.js';
import { checkFields, checkIssue, fieldOf, TypeContext } from './catalogue-checks.js';
import { checkLink, checkReversedLink, checkSprint, checkStatus, storeDirectPath, isSymmetricLinkType, linkIds, removedLink, sprintsOnBoard, catalogueBoardIds, isOpenSprint } from './workflow-checks.js';
import { permissionFindings } from './permissions.js';

export type Params = Record<string, unknown>;

export interface PlannedInput {
  type: CommandType;
  params: Params;
}

/** Queue's command catalogue (SPEC 4, 5), given to the checks. */
export interface CommandRules {
  checkParams(type: CommandType, params: Params): { problems: { param: string; detail: string }[]; customFields: string[] };
  /** the params a command of the type takes at all (a name outside them is an unknown param) */
  paramNames(type: CommandType): readonly string[];
  checkTempKeys(commands: readonly PlannedInput[]): { problems: { index: number; param: string; detail: string }[]; external: string[] };
  duplicateSummaries(commands: readonly PlannedInput[]): string[];
  /** what the command changes against the mirror: [] nothing, undefined the mirror cannot tell */
  changes(type: CommandType, params: Params, mirror: MirrorLookup): unknown[] | undefined;
}

export interface CheckContext {
  rules: CommandRules;
  /** the project's catalogue; null when the agent has not reported one */
  catalogue: Catalogue | null;
  /** older than `catalogue_max_age_minutes`, or marked stale by a failure: its verdicts are `unknown` */
  stale: boolean;
  /** settings `fields`: the custom fields ensure_fields may set */
  customFields: readonly string[];
  /** settings `link_types`: a word → Jira link type name */
  linkWords: Readonly<Record<string, string>>;
  mirror: MirrorLookup;
  /** temp keys an earlier batch resolved (those this body does not define) */
  resolved: ReadonlyMap<string, string>;
  /**
   * temp keys of this body's ensure_issue whose summary an issue of the agent's project already has (the
   * oldest such key): the agent takes that issue instead of creating one (SPEC 4), so the commands on the
   * temp key are judged against it
   */
  taken?: ReadonlyMap<string, string>;
}

export interface CheckedCommand {
  seq: number;
  type: CommandType;
  /** the params as they would be stored (a link type's Jira name, an ensure_status route as `path`) */
  params: Params;
  verdict: CheckVerdict;
  findings: Finding[];
  /** what the checks did or could not judge, in Russian («тип связи «блокирует» записан как «Blocks»») */
  notes: string[];
}

export interface CheckOutcome {
  commands: CheckedCommand[];
  /** every finding of every command, in seq order */
  findings: Finding[];
}

/** Findings of the command catalogue's own rules (SPEC 4, 5): the 422 `validation_failed` of earlier hubs. */
export const SYNTAX_CODES: readonly string[] = ['invalid_param', 'custom_field_not_allowed', 'temp_key', 'duplicate_summary'];
/** Findings that depend on the catalogue: a client may submit them as warnings (`checks: "warn"`). */
export const CATALOGUE_CODES: readonly string[] = [
  'issue_type_case',
  'unknown_issue_type',
  'parent_required',
  'parent_type',
  'unknown_field',
  'ambiguous_field',
  'field_not_on_screen',
  'required_field_missing',
  'value_not_allowed',
  'value_type',
  'unknown_assignee',
  'unknown_user',
  'unknown_link_type',
  // the mirror's links with the catalogue's directions: the mirror may be older than Jira
  'reversed_link',
  'unknown_status',
  'status_case',
  'status_unreachable',
  'no_route',
  'transition_screen',
  'unknown_sprint',
  'sprint_case',
  'sprint_closed',
  'sprint_ambiguous',
  'subtask_sprint',
  'permission',
];

const KEY_PARAMS = ['key', 'source', 'target', 'parent'];

/**
 * Every check of every command of a body, in one pass. A body of 1,000 commands takes milliseconds:
 * the loops over its commands let the event loop in when the slice is used up (common/turns.ts, decision 1320).
 */
export async function checkCommands(commands: readonly PlannedInput[], ctx: CheckContext): Promise<CheckOutcome> {
  const checks: CommandCheck[] = commands.map((c, i) => ({ seq: i + 1, type: c.type, params: { ...c.params }, findings: [], notes: [], unknown: [] }));
  await syntaxFindings(commands, ctx, checks);
  const usable = ctx.catalogue && !ctx.stale ? ctx.catalogue : null;
  const taken = ctx.taken ?? new Map<string, string>();
  // A taken temp key means its existing issue, for the commands after the ensure_issue as for an earlier batch's.
  if (taken.size) ctx = { ...ctx, resolved: new Map([...ctx.resolved, ...taken]) };
  if (!ctx.catalogue) checks.forEach((c) => c.unknown.push('каталога Jira в хабе ещё нет (агент прочитает его командой refresh_catalogue)'));
  else if (ctx.stale) checks.forEach((c) => c.unknown.push('каталог Jira устарел; хаб обновит его, когда очередь освободится (или раньше, если человек обновит его: панель хаба, POST /catalogue/refresh)'));
  const types = new TypeContext(usable, ctx.mirror, ctx.resolved);
  const removedLinks = new Set<string>();
  /** the ensure_link commands whose link, either way, an earlier remove_link of the body removes */
  const relinked = new Set<number>();
  await eachInSlices(
    checks,
    (c) => {
      // An unknown param hides nothing else (SPEC 16.2: every finding at once): the command is judged without it.
      const unknown = new Set(c.unknownParams);
      if (c.findings.some((f) => SYNTAX_CODES.includes(f.code) && !((f.code === 'invalid_param' || f.code === 'custom_field_not_allowed') && unknown.has(f.param)))) return;
      const sent = c.params;
      if (unknown.size) c.params = Object.fromEntries(Object.entries(sent).filter(([k]) => !unknown.has(k)));
      judge(c);
      if (unknown.size) c.params = { ...c.params, ...Object.fromEntries(Object.entries(sent).filter(([k]) => unknown.has(k))) };
    },
  );
  const verdictMirror = withCatalogue(ctx.mirror, ctx.catalogue);
  const out = await mapInSlices(checks, (c) => ({ seq: c.seq, type: c.type, params: c.params, verdict: verdictOf(c, ctx, relinked, verdictMirror), findings: c.findings, notes: [...c.notes, ...c.unknown] }));
  return { commands: out, findings: out.flatMap((c) => c.findings) };

  /** The checks of the catalogue, the mirror and Jira's limits on one command whose params are well formed. */
  function judge(c: CommandCheck): void {
    const existing = c.type === 'ensure_issue' ? taken.get(String(c.params.temp_key)) : undefined;
    if (existing) {
      c.notes.push(`в проекте уже есть ${existing} с той же темой: агент возьмёт эту задачу, а не создаст новую (тип, поля и родитель команды к ней не применятся); команды с ${String(c.params.temp_key)} проверены по ней`);
      return;
    }
    checkContent(c, (name) => (usable ? fieldOf(usable, name)?.id : undefined) ?? byJiraName(name));
    // An issue Jira no longer has (mirror.gone, decision 1449): its last copy in the mirror says nothing of what
    // the command would do, so it is judged `unknown`, not refused — the issue may have come back, Jira settles it.
    const gone = goneKeys(c, ctx);
    if (gone.length) c.unknown.push(goneWhy(gone, c.type));
    // The catalogue is one project's: another project's issue has its own types, screens, workflows, boards and permissions.
    const key = typeof c.params.key === 'string' ? (ctx.resolved.get(c.params.key) ?? c.params.key) : undefined;
    const other = usable && key !== undefined && isJiraKey(key) && !key.startsWith(`${usable.project_key}-`) ? key.slice(0, key.lastIndexOf('-')) : undefined;
    if (other) {
      c.unknown.push(`${key} — задача проекта ${other}, а каталог в хабе — проекта ${usable!.project_key}: экраны, переходы, спринты и права проекта ${other} хабу неизвестны`);
      if (c.type === 'ensure_status') storeDirectPath(c);
      return;
    }
    if (c.type === 'ensure_issue') checkIssue(c, types);
    else if (c.type === 'ensure_fields') checkFields(c, types, ctx.customFields);
    else if (c.type === 'ensure_status') checkStatus(c, types);
    else if (c.type === 'ensure_link' || c.type === 'remove_link') {
      // An end the mirror does not hold: whether Jira has it the hub cannot tell (the agent would get a 404).
      for (const end of [c.params.source, c.params.target].map((k) => (typeof k === 'string' ? (ctx.resolved.get(k) ?? k) : k))) {
        if (typeof end === 'string' && isJiraKey(end) && !ctx.mirror.issue(end)) c.unknown.push(`${end} нет в зеркале: есть ли такая задача в Jira, хаб не знает (сначала обновите её в зеркале)`);
      }
      checkLink(c, usable, ctx.linkWords);
      checkReversedLink(c, usable, ctx.mirror, ctx.resolved, removedLinks);
      const removed = removedLink(c, ctx.resolved);
      if (removed) removedLinks.add(removed);
      if (c.type === 'ensure_link' && removedLinks.size && linkIds(c, ctx.resolved).some((id) => removedLinks.has(id))) relinked.add(c.seq);
    } else if (c.type === 'ensure_sprint') checkSprint(c, types);
    if (usable) permissionFindings(c, usable);
  }
}

/** The issues a command names that Jira no longer has, each with the run that found it gone; none for a refresh (it reads Jira). */
function goneKeys(c: CommandCheck, ctx: CheckContext): { key: string; run: number }[] {
  if (c.type === 'refresh' || c.type === 'refresh_catalogue' || !ctx.mirror.gone) return [];
  const keys = KEY_PARAMS.map((k) => c.params[k]).map((k) => (typeof k === 'string' ? (ctx.resolved.get(k) ?? k) : k));
  return [...new Set(keys.filter((k): k is string => typeof k === 'string' && isJiraKey(k)))].flatMap((key) => {
    const run = ctx.mirror.gone!(key);
    return run === undefined ? [] : [{ key, run }];
  });
}

/**
 * The mirror as the verdicts read it, with the catalogue: its symmetric link types (a link either way is the
 * link) and the sprints of its boards (an ensure_sprint with a board compared by the sprint's id, decision 1430).
 */
export function withCatalogue(mirror: MirrorLookup, catalogue: Catalogue | null): MirrorLookup {
  return {
    issue: (key) => mirror.issue(key),
    hasLink: (s, t, type) => mirror.hasLink(s, t, type),
    ...(mirror.gone && { gone: (key: string) => mirror.gone!(key) }),
    isSymmetric: (type) => isSymmetricLinkType(catalogue, type),
    sprintsOnBoard: (board, sprint) => sprintsOnBoard(catalogue, board, sprint),
    boardIds: (board) => catalogueBoardIds(catalogue, board),
    isOpenSprint: (id) => isOpenSprint(catalogue, id),
    boards: () => catalogue?.boards,
  };
}

function verdictOf(c: CommandCheck, ctx: CheckContext, relinked: ReadonlySet<number>, mirror: MirrorLookup): CheckVerdict {
  if (c.findings.length > 0) return 'will_fail';
  if (c.type === 'refresh' || c.type === 'refresh_catalogue') return 'no_change';
  if (c.type === 'ensure_issue' && ctx.taken?.has(String(c.params.temp_key))) return 'no_change';
  if (c.unknown.length > 0) return 'unknown';
  const resolve = (v: unknown) => (typeof v === 'string' && ctx.resolved.has(v) ? ctx.resolved.get(v)! : v);
  const params = Object.fromEntries(Object.entries(c.params).map(([k, v]) => [k, KEY_PARAMS.includes(k) ? resolve(v) : v]));
  if (KEY_PARAMS.some((k) => isTempKey(params[k]))) return 'will_change';
  // A link an earlier remove_link of the body takes away is made again, whatever the mirror holds now.
  if (relinked.has(c.seq)) return 'will_change';
  const changes = ctx.rules.changes(c.type, params, mirror);
  return changes !== undefined && changes.length === 0 ? 'no_change' : 'will_change';
}

/** The command catalogue's rules, duplicate summaries, custom fields and temp keys, each at its command. */
async function syntaxFindings(commands: readonly PlannedInput[], ctx: CheckContext, checks: CommandCheck[]): Promise<void> {
  const allowed = new Set(ctx.customFields);
  await eachInSlices(commands, (c, i) => {
    const { problems, customFields } = ctx.rules.checkParams(c.type, c.params);
    for (const p of problems) checks[i]!.findings.push({ seq: i + 1, param: p.param, code: 'invalid_param', detail: p.detail });
    // Names the command does not take (for ensure_fields: custom fields settings do not allow) hide no other finding.
    const notAllowed = customFields.filter((f) => !allowed.has(f));
    checks[i]!.unknownParams = c.type === 'ensure_fields' ? notAllowed : Object.keys(c.params).filter((k) => !ctx.rules.paramNames(c.type).includes(k));
    for (const f of notAllowed) {
      checks[i]!.findings.push({
        seq: i + 1,
        param: f,
        code: 'custom_field_not_allowed',
        detail: `поле ${f} не стандартное и не указано в настройке fields`,
        suggestion: 'добавьте его в настройку fields (PATCH /settings) или проверьте имя поля',
      });
    }
  });
  // Compared as the agent compares summaries (comparableText: one Unicode spelling), named as first written.
  const repeated = new Set(ctx.rules.duplicateSummaries(commands).map(comparableText));
  const seen = new Map<string, { seq: number; summary: string }>();
  commands.forEach((c, i) => {
    if (c.type !== 'ensure_issue' || typeof c.params.summary !== 'string' || !repeated.has(comparableText(c.params.summary))) return;
    const key = comparableText(c.params.summary);
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, { seq: i + 1, summary: c.params.summary.trim() });
    else {
      const { seq: first, summary } = earlier;
      checks[i]!.findings.push({
        seq: i + 1,
        param: 'summary',
        code: 'duplicate_summary',
        detail: `повторяется тема ensure_issue: «${shownText(summary)}» (как в шаге ${first})`,
        suggestion: 'у каждой новой задачи пакета своя тема; уберите повтор или измените тему',
      });
    }
  });
  const temp = ctx.rules.checkTempKeys(commands);
  for (const p of temp.problems) checks[p.index]!.findings.push({ seq: p.index + 1, param: p.param, code: 'temp_key', detail: p.detail });
  const unresolved = new Set(temp.external.filter((t) => !ctx.resolved.has(t)));
  commands.forEach((c, i) => {
    const named = [...KEY_PARAMS.map((k) => [k, c.params[k]] as const), ...(Array.isArray(c.params.keys) ? c.params.keys.map((k) => ['keys', k] as const) : [])];
    for (const [param, value] of named) {
      if (typeof value !== 'string' || !unresolved.has(value)) continue;
      checks[i]!.findings.push({
        seq: i + 1,
        param,
        code: 'temp_key',
        detail: `временный ключ ${value} не создаётся в этом пакете и не создан раньше`,
        suggestion: `добавьте раньше в пакет ensure_issue с temp_key ${value} или укажите ключ Jira`,
      });
    }
  });
}
