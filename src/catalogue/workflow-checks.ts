/** The checks of statuses and routes, link types and sprints against the catalogue (SPEC 16.2). Pure. */
import type { Catalogue, CatalogueLinkType, CatalogueSprint } from '@jira-hub/contracts';
import { isJiraKey } from '@jira-hub/contracts/catalogue';
import { shownText } from '../common/index.js';
import { BACKLOG_NOTE, linkNote, routeNote, skippedStepsNote, swappedLinkNote, trimmedNote } from './check-notes.js';
import type { MirrorLookup } from '../mirror/index.js';
import type { TypeContext } from './catalogue-checks.js';
import { addFinding, type CommandCheck } from './content-checks.js';
import { listed, lower, match, maybe } from './match.js';
import { observedFrom, routeThroughUnobserved, shortestRoute, transitionBetween } from './routes.js';


/**
 * ensure_status: each step a status of the issue's type, each reachable from the one before by a known
 * transition, from the status the issue is in then; a transition screen asking for more than the
 * resolution is a finding. `{key, to}` is stored with the shortest known route as `path`.
 */
export function checkStatus(c: CommandCheck, types: TypeContext): void {
  checkSteps(c, types);
  // A `{key, to}` a finding left without a route (an unknown status, its case) is stored as a path all the
  // same: in `warn` mode such a finding does not refuse the submit, and the agent walks only a path.
  const to = c.params.to;
  if (typeof to === 'string') storePath(c, [to], routeNote(to, [to], 'маршрут не проверен: агент попробует прямой переход'));
}

/**
 * `{key, to}` whose route the catalogue cannot judge (an issue of another project, a type it has no statuses of)
 * stored as the direct step the agent will try: the agent walks only a path, so a `to` left as it is could not be
 * carried out.
 */
export function storeDirectPath(c: CommandCheck): void {
  const to = c.params.to;
  if (typeof to === 'string') storePath(c, [to], routeNote(to, [to], 'маршрут неизвестен: агент попробует прямой переход'));
}

function checkSteps(c: CommandCheck, types: TypeContext): void {
  const key = String(c.params.key);
  const to = typeof c.params.to === 'string' ? c.params.to : undefined;
  const steps = to !== undefined ? [to] : (c.params.path as string[]);
  const type = types.catalogue ? types.typeOf(key) : 'каталога нет';
  const config = typeof type === 'string' ? undefined : types.config(type);
  if (typeof type === 'string' || !config || config.statuses.length === 0) {
    if (typeof type === 'string' && types.catalogue) c.unknown.push(type);
    else if (types.catalogue && typeof type !== 'string') c.unknown.push(`в каталоге нет статусов типа ${type.name}`);
    storeDirectPath(c);
    return;
  }
  const names = config.statuses.map((s) => s.name);
  // Spaces around a name are no other status: stored as Jira writes it (the agent would trim them too).
  const spaced = steps.map((step) => (step !== step.trim() && names.includes(step.trim()) ? step.trim() : step));
  if (spaced.some((step, i) => step !== steps[i])) {
    c.notes.push(trimmedNote(to !== undefined ? 'to' : 'path', spaced));
    c.params = to !== undefined ? { ...c.params, to: spaced[0] } : { ...c.params, path: spaced };
    return checkSteps(c, types);
  }
  const exact: string[] = [];
  steps.forEach((step, i) => {
    const param = to !== undefined ? 'to' : `path.${i}`;
    const m = match(step, config.statuses, (s) => [s.name]);
    if (m.kind === 'exact') exact.push(step);
    else if (m.kind === 'case') addFinding(c, param, 'status_case', `статус в Jira пишется «${m.item.name}»`, `может быть, ${m.item.name}?`);
    else addFinding(c, param, 'unknown_status', `статуса «${shownText(step)}» нет в процессе типа ${type.name}; есть: ${listed(names)}`, maybe(m.close.map((s) => s.name)) ?? `одно из: ${listed(names, 8)}`);
  });
  if (exact.length !== steps.length) return;
  const start = types.statusOf(key, type);
  if (start === null) {
    c.unknown.push(`текущий статус ${key} неизвестен`);
    if (to !== undefined) storePath(c, [to], routeNote(to, [to], 'текущий статус неизвестен'));
    return;
  }
  const observed = types.catalogue?.transitions_source === 'observed';
  let path = steps;
  if (to !== undefined) {
    const route = shortestRoute(config, start, to);
    const guess = route === null && observed ? routeThroughUnobserved(config, start, to) : null;
    if (guess) {
      c.unknown.push(`переходы типа ${type.name} известны не все (каталог видел их только у задач зеркала): путь в «${to}» не проверить`);
      // The agent walks a path step by step, each a direct transition: it does not search beyond the known.
      const from = guess.length > 1 ? guess[guess.length - 2]! : start;
      return storePath(
        c,
        guess,
        routeNote(to, guess, `из «${start}»; переходы из «${from}» ещё не наблюдались: агент попробует прямой переход в «${to}», а если его нет, команда завершится ошибкой со списком доступных переходов, хаб их запомнит и следующий план пойдёт по ним дальше (или укажите путь по шагам, path)`),
      );
    }
    if (route === null) return addFinding(c, 'to', 'no_route', `из «${start}» в «${to}» нет известного маршрута для типа ${type.name}`, 'укажите путь по шагам (path) или попросите человека обновить каталог (панель хаба, POST /catalogue/refresh)');
    path = route.length ? route : [to];
    storePath(c, path, routeNote(to, path, `из «${start}»`));
  }
  // The agent walks a path from the issue's place on it (packages/agent ensure_status; a status is on a path once,
  // decision 1417): the steps up to the status the issue is in are skipped, not walked back to.
  const place = path.indexOf(start);
  if (place > 0) c.notes.push(skippedStepsNote(start, path.slice(0, place)));
  let at = start;
  path.forEach((step, i) => {
    if (i <= place || step === at) return;
    const param = to !== undefined ? 'to' : `path.${i}`;
    const edge = transitionBetween(config, at, step);
    if (!edge && observed && !observedFrom(config, at)) {
      c.unknown.push(`переходы из «${at}» типа ${type.name} ещё не наблюдались: шаг в «${step}» не проверить`);
    } else if (!edge) {
      const route = shortestRoute(config, at, step);
      addFinding(c, param, 'status_unreachable', `из «${at}» в «${step}» нет известного перехода для типа ${type.name}`, route ? `может быть, путь: ${route.join(' → ')}?` : 'известного маршрута нет: попросите человека обновить каталог (панель хаба, POST /catalogue/refresh) или провести задачу вручную');
    } else {
      const asked = edge.required_fields.filter((f) => f !== 'resolution');
      if (asked.length) addFinding(c, param, 'transition_screen', `переход «${edge.name}» (${at} → ${step}) требует заполнить на экране перехода: ${asked.join(', ')} — агент этого не делает`, 'проведите задачу через этот переход вручную или попросите администратора Jira убрать обязательные поля с экрана перехода');
      if (edge.required_fields.includes('resolution')) c.needs = [...(c.needs ?? []), 'RESOLVE_ISSUES'];
    }
    at = step;
  });
  types.moved(key, path[path.length - 1]!);
}

function storePath(c: CommandCheck, path: string[], note: string): void {
  const { to: _to, ...rest } = c.params;
  void _to;
  c.params = { ...rest, path };
  c.notes.push(note);
}

const isSymmetric = (t: CatalogueLinkType) => lower(t.inward) === lower(t.outward);

/**
 * Whether the catalogue's link type of this name reads the same both ways (Relates: «relates to» /
 * «relates to»): a link of it either way is the same link, as the agent counts it. False without a
 * catalogue or for a type it does not know.
 */
export function isSymmetricLinkType(catalogue: Catalogue | null | undefined, name: string): boolean {
  const type = catalogue?.link_types.find((t) => t.name === name);
  return type !== undefined && isSymmetric(type);
}
const linkWords = (t: CatalogueLinkType) => `${t.name} (${t.outward} / ${t.inward})`;

/**
 * ensure_link: the link type by its name, its outward or inward description (any letter case) or a word
 * of settings `link_types`; stored by its Jira name. An inward description reads the other way
 * («A is blocked by B» is «B blocks A»): source and target are swapped.
 */
export function checkLink(c: CommandCheck, catalogue: Catalogue | null, words: Readonly<Record<string, string>>): void {
  const given = String(c.params.link_type);
  const word = Object.entries(words).find(([w]) => lower(w) === lower(given.trim()));
  if (!catalogue) {
    if (word && word[1] !== given) store(c, word[1], linkNote(given, word[1]));
    return;
  }
  const types = catalogue.link_types;
  const wanted = lower((word ? word[1] : given).trim());
  const byName = types.find((t) => t.name === given) ?? types.find((t) => lower(t.name) === wanted);
  if (byName) return void (byName.name !== given && store(c, byName.name, linkNote(given, byName.name)));
  const outward = types.find((t) => lower(t.outward) === wanted);
  if (outward) return store(c, outward.name, linkNote(given, outward.name));
  const inward = types.find((t) => lower(t.inward) === wanted);
  if (inward) {
    if (isSymmetric(inward)) return store(c, inward.name, linkNote(given, inward.name));
    const { source, target } = c.params;
    c.params = { ...c.params, source: target, target: source };
    return store(c, inward.name, swappedLinkNote(given, inward, String(source), String(target)));
  }
  const m = match(given, types, (t) => [t.name, t.outward, t.inward]);
  addFinding(c, 'link_type', 'unknown_link_type', `типа связи «${shownText(given)}» в Jira нет; есть: ${listed(types.map(linkWords))}`, maybe((m.kind === 'none' ? m.close : []).map((t) => t.name)) ?? `одно из: ${listed(types.map((t) => t.name), 8)}`);
}

/**
 * A link as the submit's check stores it (checkLink): the type by Jira's name, the ends swapped for inward
 * words. A type the catalogue does not know, or no catalogue, leaves the link as written. What a package's
 * plan and the import compare with the mirror, so that both read a links.csv row as the batch would.
 */
export function linkAsSubmitted(catalogue: Catalogue | null | undefined, source: string, target: string, linkType: string): { source: string; target: string; linkType: string } {
  if (!catalogue) return { source, target, linkType };
  const check: CommandCheck = { seq: 0, type: 'ensure_link', params: { source, target, link_type: linkType }, findings: [], notes: [], unknown: [] };
  checkLink(check, catalogue, {});
  if (check.findings.length) return { source, target, linkType };
  return { source: String(check.params.source), target: String(check.params.target), linkType: String(check.params.link_type) };
}

/**
 * ensure_link of a directional type whose reverse (target → source) the mirror holds and not the link
 * itself: the agent fails such a command (SPEC 4: a reverse link is never flipped), so it is a finding
 * before anyone approves. Keys an earlier batch created are looked up as their Jira keys.
 */
export function checkReversedLink(c: CommandCheck, catalogue: Catalogue | null, mirror: MirrorLookup, resolved: ReadonlyMap<string, string>, removed: ReadonlySet<string>): void {
  if (c.type !== 'ensure_link' || !catalogue || c.findings.length > 0) return;
  const type = catalogue.link_types.find((t) => t.name === c.params.link_type);
  if (!type || isSymmetric(type)) return;
  const key = (v: unknown) => (typeof v === 'string' ? (resolved.get(v) ?? v) : undefined);
  const [source, target] = [key(c.params.source), key(c.params.target)];
  if (!isJiraKey(source) || !isJiraKey(target) || !mirror.hasLink(target, source, type.name) || mirror.hasLink(source, target, type.name)) return;
  // An earlier remove_link of the same body takes the reverse away first (a revert of a flipped link does just that).
  if (removed.has(linkId(target, source, type.name))) return;
  addFinding(
    c,
    'source',
    'reversed_link',
    `в Jira уже есть обратная связь: ${target} ${type.outward} ${source} (тип «${type.name}»); агент связь не переворачивает, и команда завершится ошибкой`,
    `если нужна именно эта связь, сначала удалите обратную (remove_link {source: ${target}, target: ${source}, link_type: ${type.name}}); если обратная верна — уберите команду`,
  );
}

const linkId = (source: string, target: string, type: string) => `${source}\u0000${target}\u0000${type}`;

/** A link command's ends (temp keys as an earlier batch resolved them) and its type as stored; undefined when one is missing. */
function linkOf(c: CommandCheck, resolved: ReadonlyMap<string, string>): [string, string, string] | undefined {
  const key = (v: unknown) => (typeof v === 'string' ? (resolved.get(v) ?? v) : undefined);
  const [source, target, type] = [key(c.params.source), key(c.params.target), c.params.link_type];
  return source && target && typeof type === 'string' ? [source, target, type] : undefined;
}

/** An ensure_link's link, as removedLink names one, either way round (its ends resolved). */
export function linkIds(c: CommandCheck, resolved: ReadonlyMap<string, string>): string[] {
  const link = linkOf(c, resolved);
  return link ? [linkId(...link), linkId(link[1], link[0], link[2])] : [];
}

/** The link a remove_link takes away (its ends resolved, its type as stored), for the checks of the commands after it. */
export function removedLink(c: CommandCheck, resolved: ReadonlyMap<string, string>): string | undefined {
  if (c.type !== 'remove_link' || c.findings.length > 0) return undefined;
  const link = linkOf(c, resolved);
  return link ? linkId(...link) : undefined;
}

function store(c: CommandCheck, name: string, note: string): void {
  c.params = { ...c.params, link_type: name };
  c.notes.push(note);
}

/**
 * ensure_sprint: not a sub-task (Jira moves a sub-task only with its parent: the agent refuses it, so the
 * checks do, the type known from the mirror or from this batch's ensure_issue); an active or future
 * sprint, unambiguous (else the candidates as `board: sprint`); null is the backlog.
 */
export function checkSprint(c: CommandCheck, types: TypeContext): void {
  const sprint = c.params.sprint;
  if (sprint === null) return void c.notes.push(BACKLOG_NOTE);
  const catalogue = types.catalogue;
  if (!catalogue) return;
  checkNotSubtask(c, types);
  const boardName = (s: CatalogueSprint) => catalogue.boards.find((b) => b.id === s.board_id)?.name ?? `доска ${s.board_id}`;
  const shown = (s: CatalogueSprint) => `${boardName(s)}: ${s.name}`;
  let pool = catalogue.sprints;
  const board = c.params.board;
  if (board !== undefined) {
    const ids = boardIds(catalogue, board as string | number);
    if (ids.length === 0) return addFinding(c, 'board', 'unknown_sprint', `доски «${shownText(String(board))}» в каталоге нет; есть: ${listed(catalogue.boards.map((b) => `${b.name} (${b.id})`))}`, maybe(catalogue.boards.map((b) => b.name)));
    pool = pool.filter((s) => ids.includes(s.board_id));
  }
  if (typeof sprint === 'string' && sprint !== sprint.trim() && pool.some((s) => s.name === sprint.trim())) {
    // Spaces around a name are no other sprint: stored as Jira writes it (the agent would trim them too).
    c.params = { ...c.params, sprint: sprint.trim() };
    c.notes.push(trimmedNote('sprint', [sprint.trim()]));
    return checkSprint(c, types);
  }
  const name = String(sprint);
  const open = pool.filter((s) => s.state !== 'closed');
  const named = pool.filter((s) => s.name === name);
  // A closed sprint is never the one asked for (decision 1434): of a name that open sprints have, only they count.
  const openNamed = named.filter((s) => s.state !== 'closed');
  const exact = openNamed.length > 0 ? openNamed : named;
  if (exact.length === 0) {
    const sameCase = pool.filter((s) => lower(s.name) === lower(name.trim()));
    if (sameCase.length) return addFinding(c, 'sprint', 'sprint_case', `спринт в Jira пишется «${sameCase[0]!.name}»`, `может быть, ${sameCase.map(shown).join(' или ')}?`);
    // The sprint is on another board than the one named: say so, rather than that it does not exist.
    const elsewhere = board === undefined ? [] : catalogue.sprints.filter((s) => lower(s.name) === lower(name.trim()) && s.state !== 'closed');
    if (elsewhere.length) {
      const boards = [...new Set(elsewhere.map((s) => `«${boardName(s)}»`))];
      const on = boards.length === 1 ? `он есть на доске ${boards[0]}` : `он есть на досках ${boards.slice(0, -1).join(', ')} и ${boards.at(-1)}`;
      const fix = boards.length === 1 ? `укажите доску ${boards[0]} или уберите board` : `укажите доску ${boards.slice(0, -1).join(', ')} или ${boards.at(-1)}`;
      return addFinding(c, 'board', 'unknown_sprint', `на доске «${shownText(String(board))}» спринта «${elsewhere[0]!.name}» нет: ${on}`, fix);
    }
    const close = match(name, open, (s) => [s.name]);
    const candidates = (close.kind === 'none' && close.close.length ? close.close : open).map(shown);
    return addFinding(c, 'sprint', 'unknown_sprint', `спринта «${shownText(name)}» нет среди активных и будущих${board === undefined ? '' : ` доски «${shownText(String(board))}»`}`, candidates.length ? `может быть, ${listed(candidates, 6)}?` : 'активных и будущих спринтов нет: создайте спринт в Jira');
  }
  // Only closed ones (on one board or several): the sprint is closed, whichever was meant.
  if (openNamed.length === 0) {
    return addFinding(c, 'sprint', 'sprint_closed', `спринт «${name}» закрыт: в него нельзя перенести задачу`, maybe(open.map(shown)) ?? 'активных и будущих спринтов нет: sprint: null отправит задачу в бэклог');
  }
  if (exact.length > 1) {
    return addFinding(c, 'sprint', 'sprint_ambiguous', `спринт «${name}» есть на нескольких досках: ${exact.map(shown).join(', ')}`, `укажите board: ${exact.map((s) => `${boardName(s)} (${s.board_id})`).join(' или ')}`);
  }
}

/** The catalogue's boards an ensure_sprint's `board` names: by id, or by name in any letter case. */
function boardIds(catalogue: Pick<Catalogue, 'boards'>, board: string | number): number[] {
  return catalogue.boards.filter((b) => String(b.id) === String(board).trim() || (typeof board === 'string' && lower(b.name) === lower(board.trim()))).map((b) => b.id);
}

/** The catalogue's boards an ensure_sprint's `board` names (decision 1430); undefined without a catalogue or such a board. */
export function catalogueBoardIds(catalogue: Pick<Catalogue, 'boards'> | null | undefined, board: string | number): number[] | undefined {
  const ids = catalogue ? boardIds(catalogue, board) : [];
  return ids.length === 0 ? undefined : ids;
}

/** Whether the catalogue lists the sprint `id` among its open sprints (decision 1430); undefined without a catalogue. */
export function isOpenSprint(catalogue: Catalogue | null | undefined, id: number): boolean | undefined {
  return catalogue ? catalogue.sprints.some((s) => s.id === id && s.state !== 'closed') : undefined;
}

/**
 * The ids of the catalogue's sprints named `sprint` on the board `board` names (decision 1430); undefined
 * when there is no catalogue or it has no such board (the checks name that). What the rule of sprints
 * (queue's mirrorShowsSprint) compares the mirror's sprint id with.
 */
export function sprintsOnBoard(catalogue: Catalogue | null | undefined, board: string | number, sprint: string): number[] | undefined {
  if (!catalogue) return undefined;
  const ids = boardIds(catalogue, board);
  if (ids.length === 0) return undefined;
  return catalogue.sprints.filter((s) => ids.includes(s.board_id) && s.name === sprint.trim()).map((s) => s.id);
}

/**
 * A sub-task is never moved into a sprint on its own: Jira takes it along with its parent (the agent
 * refuses the command, naming the parent). A type not known here (not in the mirror, not in the
 * catalogue) is no finding: the sprint's own checks still decide the verdict.
 */
function checkNotSubtask(c: CommandCheck, types: TypeContext): void {
  const key = String(c.params.key);
  const type = types.typeOf(key);
  if (typeof type === 'string' || !type.subtask) return;
  const parent = types.parentOf(key);
  addFinding(
    c,
    'key',
    'subtask_sprint',
    `${key} — подзадача («${type.name}»): Jira не переносит подзадачи в спринт отдельно, они идут в спринт вместе с родительской задачей${parent ? ` ${parent}` : ''}`,
    `перенесите в спринт родительскую задачу${parent ? ` ${parent}` : ''} — подзадача перейдёт вместе с ней`,
  );
}
