import { CommandFailure } from '../command-failure.js';
import { JiraApi, type JiraBoard, type JiraSprint } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString } from './params.js';
import { currentSprint, parseSprints, sprintRef } from '../issue-mapper.js';
import type { AgentCommand } from '../types.js';

interface Candidate {
  sprint: JiraSprint;
  board: JiraBoard;
}

/**
 * ensure_sprint → {sprint_id} (SPEC 4 as amended). Finds the sprint by exact name among the active and future
 * sprints of the scrum and simple boards of the issue's project — only the board named by `board` (its name or
 * id) when given (kanban boards have no sprints and are not asked; a sprint shared by several boards counts once).
 * Fails clearly, before any write: no such sprint (naming a closed one of that name: Jira refuses to move issues
 * into a closed sprint), several (each candidate as «board»: «sprint» (id)), an unknown board, and a sub-task
 * (Jira moves sub-tasks only with their parent). Moving an issue to the sprint it is in already changes nothing.
 * The sprint is compared by its id (decision 1430): «Спринт 2» of one board and «Спринт 2» of another are two
 * sprints, and a move between them is a change; the change record names both with their ids and boards.
 */
export async function ensureSprint(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  // SPEC 16.2: `sprint: null` moves the issue to the backlog (out of its active or future sprint).
  if (cmd.params.sprint === null) return toBacklog(cmd, key, ctx);
  const name = requireString(cmd.params, 'sprint').trim();
  const boardParam = cmd.params.board;
  if (boardParam !== undefined && boardParam !== null && !(typeof boardParam === 'number' || (typeof boardParam === 'string' && boardParam.trim() !== ''))) {
    throw new CommandFailure('неверный параметр «board»: ожидается название доски или её id');
  }
  const project = /^(.+)-\d+$/.exec(key)?.[1] ?? ctx.project;
  const api = JiraApi.for(ctx.client);

  const sprintField = await api.sprintFieldId();
  const issue = await api.getIssue(key, ['issuetype', 'parent', ...(sprintField ? [sprintField] : [])]);
  // Only an open sprint holds the issue: one listed in closed sprints alone is in the backlog (as toBacklog reads
  // it), and a change recorded from the closed sprint would be reverted into a sprint Jira refuses to fill.
  const listed = sprintField ? currentSprint(issue.fields[sprintField]) : null;
  const before = listed !== null && listed.state !== 'closed' ? listed : null;
  const issueType = issue.fields.issuetype as { name?: string; subtask?: boolean } | undefined;
  if (issueType?.subtask) {
    const parent = (issue.fields.parent as { key?: string } | undefined)?.key;
    throw new CommandFailure(
      `${key} — подзадача («${issueType.name ?? 'Sub-task'}»): Jira не переносит подзадачи в спринт отдельно, они идут в спринт вместе с родительской задачей${parent ? ` ${parent}` : ''}`,
    );
  }

  // Boards and open sprints come from the agent's cache; a sprint (or board) not there is worth one fresh read.
  const lookup = async () => {
    const boards = pickBoards((await api.boards(project)).filter((b) => b.type?.toLowerCase() !== 'kanban'), boardParam as string | number | undefined, project);
    return { boards, open: await candidates(api, boards, name, 'active,future') };
  };
  let found: Awaited<ReturnType<typeof lookup>> | undefined;
  const cached = api.agileCached;
  try {
    found = await lookup();
  } catch (error) {
    if (!(cached && error instanceof CommandFailure)) throw error;
  }
  if (cached && (!found || found.open.length === 0)) {
    api.forgetAgile();
    found = await lookup();
  }
  const { boards, open } = found!;
  if (open.length === 0) {
    const closed = await candidates(api, boards, name, 'closed');
    if (closed.length > 0) throw new CommandFailure(`спринт «${name}» закрыт (${describe(closed)}): Jira не переносит задачи в закрытый спринт`);
    const where = boardParam === undefined || boardParam === null ? `досок проекта ${project}` : `доски «${boards[0]!.name}»`;
    throw new CommandFailure(`спринт «${name}» не найден среди активных и будущих спринтов ${where}`);
  }
  if (open.length > 1) {
    throw new CommandFailure(`спринт «${name}» неоднозначен: в проекте ${project} несколько таких спринтов — ${describe(open)}; укажите доску в параметре board`);
  }
  const { sprint, board } = open[0]!;
  // The same sprint when Jira gave the issue's sprint id; by name only when it did not (a value without one).
  const same = before !== null && (before.id === null ? before.name === sprint.name : before.id === sprint.id);
  const changes = same ? [] : [{ key: issue.key, what: 'sprint', before: sprintRef(before), after: { id: sprint.id, name: sprint.name, board_id: sprint.originBoardId ?? board.id } }];
  if (!same) ctx.journal.recordIntent(cmd.id, cmd, changes);
  try {
    await api.moveToSprint(sprint.id, [key]);
  } catch (error) {
    // The cached sprint may have been closed or deleted since: read again next time.
    if (error instanceof JiraHttpError && (error.status === 400 || error.status === 404)) api.forgetAgile();
    throw error;
  }
  return { sprint_id: sprint.id, ...(same ? {} : { changes }) };
}

/**
 * ensure_sprint with `sprint: null` (SPEC 16.2) → {sprint_id: null}: out of its open sprint into the backlog
 * (POST /rest/agile/1.0/backlog/issue); an issue in no open sprint changes nothing. The move is journaled
 * just before it is sent (decision 0121), as a move into a named sprint is: a re-delivery after a lost answer
 * finds the issue in the backlog already and reports the sprint it left.
 */
async function toBacklog(cmd: AgentCommand, key: string, ctx: ExecutorContext): Promise<CommandResult> {
  const api = JiraApi.for(ctx.client);
  const sprintField = await api.sprintFieldId();
  if (!sprintField) throw new CommandFailure('в Jira нет поля спринта (Jira Software не установлена): перенести задачу в бэклог нельзя');
  const issue = await api.getIssue(key, ['issuetype', sprintField]);
  const open = parseSprints(issue.fields[sprintField]).filter((s) => s.state === 'active' || s.state === 'future');
  if (open.length === 0) return { sprint_id: null };
  const changes = [{ key: issue.key, what: 'sprint', before: sprintRef(currentSprint(issue.fields[sprintField])), after: null }];
  ctx.journal.recordIntent(cmd.id, cmd, changes);
  await api.moveToBacklog([issue.key]);
  return { sprint_id: null, changes };
}

/** The boards to search: all, or the one `board` names (by id, or by name case-insensitively). */
function pickBoards(boards: JiraBoard[], board: string | number | undefined | null, project: string): JiraBoard[] {
  if (board === undefined || board === null) return boards;
  const wanted = String(board).trim();
  const found = boards.filter((b) => String(b.id) === wanted || b.name.trim().toLowerCase() === wanted.toLowerCase());
  const byId = found.filter((b) => String(b.id) === wanted);
  if (byId.length === 1) return byId;
  if (found.length === 1) return found;
  const list = boards.map((b) => `«${b.name}» (id ${b.id})`).join(', ') || 'нет';
  if (found.length === 0) throw new CommandFailure(`доска «${wanted}» не найдена среди досок проекта ${project} со спринтами: ${list}`);
  throw new CommandFailure(`доска «${wanted}» неоднозначна: в проекте ${project} несколько досок с таким названием — ${found.map((b) => `id ${b.id}`).join(', ')}; укажите id`);
}

async function candidates(api: JiraApi, boards: JiraBoard[], name: string, states: string): Promise<Candidate[]> {
  const found = new Map<number, Candidate>();
  for (const board of boards) {
    let sprints: JiraSprint[];
    try {
      sprints = await api.sprints(board.id, states);
    } catch (error) {
      // `simple` boards of Cloud team-managed projects have sprints too, when the feature is on. A board
      // without sprints (simple with sprints off, or a kanban one of an unexpected type) answers 400.
      if (error instanceof JiraHttpError && error.status === 400) continue;
      throw error;
    }
    for (const sprint of sprints) if (sprint.name.trim() === name && !found.has(sprint.id)) found.set(sprint.id, { sprint, board });
  }
  return [...found.values()];
}

function describe(list: Candidate[]): string {
  return list.map((c) => `«${c.board.name}»: «${c.sprint.name}» (id ${c.sprint.id})`).join(', ');
}
