import { CommandFailure } from '../command-failure.js';
import { JiraApi, type JiraSprint } from '../jira-api.js';
import { JiraHttpError } from '../jira-client.js';
import type { CommandResult, ExecutorContext } from './context.js';
import { requireString } from './params.js';
import type { AgentCommand } from '../types.js';

/**
 * ensure_sprint → {sprint_id}. Finds the sprint by exact name among the active and future sprints of the
 * scrum and simple boards of the project (kanban boards have no sprints and are not asked; a sprint
 * shared by several boards counts once); none or several → failed.
 * Moving an issue to the sprint it is in already changes nothing in Jira, so no read comes first.
 */
export async function ensureSprint(cmd: AgentCommand, ctx: ExecutorContext): Promise<CommandResult> {
  const key = requireString(cmd.params, 'key');
  const name = requireString(cmd.params, 'sprint').trim();
  const project = /^(.+)-\d+$/.exec(key)?.[1] ?? ctx.project;
  const api = JiraApi.for(ctx.client);

  const found = new Map<number, JiraSprint>();
  for (const board of await api.boards(project)) {
    if (board.type?.toLowerCase() === 'kanban') continue; // no sprints: asking costs a call and a 400
    let sprints: JiraSprint[];
    try {
      sprints = await api.sprints(board.id, 'active,future');
    } catch (error) {
      // `simple` boards of Cloud team-managed projects have sprints too, when the feature is on. A board
      // without sprints (simple with sprints off, or a kanban one of an unexpected type) answers 400.
      if (error instanceof JiraHttpError && error.status === 400) continue;
      throw error;
    }
    for (const sprint of sprints) if (sprint.name.trim() === name) found.set(sprint.id, sprint);
  }
  if (found.size === 0) throw new CommandFailure(`спринт «${name}» не найден среди активных и будущих спринтов досок проекта ${project}`);
  if (found.size > 1) throw new CommandFailure(`спринт «${name}» неоднозначен: в проекте ${project} несколько таких спринтов (id ${[...found.keys()].join(', ')})`);
  const sprint = [...found.values()][0]!;
  await api.moveToSprint(sprint.id, [key]);
  return { sprint_id: sprint.id };
}
