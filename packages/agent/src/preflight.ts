import { ambiguousFieldText } from './field-values.js';
import { JiraApi, type JiraBoard } from './jira-api.js';
import { checkCatalogue } from './preflight-catalogue.js';
import { JiraHttpError, JiraNetworkError, type JiraClient } from './jira-client.js';
import type { AgentSettings } from './types.js';
import type { QueuedStatusTarget } from '@jira-hub/contracts';

/** One line of the pre-flight checklist. */
export interface CheckLine {
  ok: boolean;
  text: string;
  /** About the hub rather than Jira: at agent start a hub that does not answer yet does not stop the agent (the loop waits for it). */
  hub?: boolean;
  /**
   * About what a queued command asks (a status it names) rather than the agent's environment: at agent start
   * it does not stop the agent — that command fails on its own when run, with Jira's reason, and the rest of
   * the queue goes on; `--check` still shows it as ✗.
   */
  command?: boolean;
}

/** The project permissions the agent's commands need (GET /mypermissions keys), with what they are for. */
export const NEEDED_PERMISSIONS: ReadonlyArray<[string, string]> = [
  ['BROWSE_PROJECTS', 'просмотр проекта и задач'],
  ['CREATE_ISSUES', 'создание задач (ensure_issue)'],
  ['EDIT_ISSUES', 'изменение полей (ensure_fields)'],
  ['TRANSITION_ISSUES', 'смена статуса (ensure_status)'],
  ['LINK_ISSUES', 'связи между задачами (ensure_link)'],
  ['ADD_COMMENTS', 'комментарии (ensure_comment)'],
  ['SCHEDULE_ISSUES', 'планирование: спринты и сроки (ensure_sprint, duedate)'],
  ['ASSIGN_ISSUES', 'назначение исполнителя (assignee в ensure_issue и ensure_fields)'],
  ['RESOLVE_ISSUES', 'переходы с резолюцией, например в «Done» (ensure_status)'],
];

export interface PreflightOptions {
  jira: JiraClient;
  project: string;
  /** The hub's settings (link types, fields), or why they could not be read. */
  settings: AgentSettings | { error: string };
  /** Statuses the queued commands walk to, with the issue types walked there (GET /agent/queued-statuses): each must be reachable in their workflows. */
  statuses?: QueuedStatusTarget[];
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The pre-flight checks (issue 12), read-only: nothing is written to Jira. Credentials valid (GET /myself),
 * the project (GET /project/{key}) and its issue types, the permissions the commands need (GET /mypermissions),
 * each link type of settings `link_types` (GET /issueLinkType), each name of settings `fields` resolving to
 * exactly one field (GET /field; a name only team-managed projects' own fields share with ours is resolved by
 * the field's scope), the boards of the project and their sprints readable (Agile API), then what the catalogue
 * reads (see checkCatalogue): create screens and required fields, Epic Link and sprint fields, a test search,
 * and each status the queued commands name reachable.
 * A failure that makes the following checks meaningless (Jira unreachable, credentials refused, no project) ends
 * the list there. Missing credentials are checked before (see credentialProblems): the agent never runs anonymously.
 */
export async function preflight(options: PreflightOptions): Promise<CheckLine[]> {
  const { jira, project } = options;
  const api = JiraApi.for(jira);
  api.projectKey ??= project;
  const lines: CheckLine[] = [];
  const ok = (text: string): void => void lines.push({ ok: true, text });
  const fail = (text: string): void => void lines.push({ ok: false, text });

  try {
    const me = await jira.api<{ displayName?: string; accountId?: string; name?: string; emailAddress?: string }>('GET', '/myself');
    ok(`вход в Jira: ${me.displayName ?? me.name ?? me.accountId ?? 'пользователь'}${me.emailAddress ? ` <${me.emailAddress}>` : ''}`);
  } catch (error) {
    if (error instanceof JiraNetworkError) fail(error.message);
    else if (error instanceof JiraHttpError && (error.status === 401 || error.status === 403)) fail(`Jira не принимает учётные данные (HTTP ${error.status}: ${error.jiraMessage}) — проверьте токен и адрес`);
    else fail(`вход в Jira не удался: ${reason(error)}`);
    return lines;
  }

  if ('error' in options.settings) lines.push({ ok: false, hub: true, text: `настройки хаба не прочитаны (${options.settings.error}): типы связей и поля не проверены` });

  try {
    const types = await api.projectIssueTypes(project);
    ok(`проект ${project} найден; типы задач: ${types.map((t) => t.name).join(', ') || 'нет'}`);
  } catch (error) {
    fail(error instanceof JiraHttpError && error.status === 404 ? `проект ${project} не найден или не виден этому пользователю (HTTP 404) — проверьте JIRA_PROJECT и права` : `проект ${project} не прочитан: ${reason(error)}`);
    return lines;
  }

  try {
    const answer = await jira.api<{ permissions: Record<string, { havePermission?: boolean }> }>('GET', '/mypermissions', {
      query: { projectKey: project, permissions: NEEDED_PERMISSIONS.map(([key]) => key).join(',') },
    });
    for (const [key, what] of NEEDED_PERMISSIONS) {
      if (answer.permissions[key]?.havePermission) ok(`право ${key}: ${what}`);
      else fail(`нет права ${key} в проекте ${project}: ${what} — выдайте его пользователю агента в схеме прав проекта`);
    }
  } catch (error) {
    fail(`права в проекте ${project} не прочитаны: ${reason(error)}`);
  }

  if (!('error' in options.settings)) {
    await checkLinkTypes(api, options.settings, lines);
    await checkFields(api, options.settings, lines);
  }
  await checkBoards(api, project, lines);
  await checkCatalogue(api, project, options.statuses ?? [], lines);
  return lines;
}

async function checkLinkTypes(api: JiraApi, settings: AgentSettings, lines: CheckLine[]): Promise<void> {
  const wanted = Object.entries(settings.link_types ?? {});
  if (wanted.length === 0) return;
  let known;
  try {
    known = await api.linkTypes();
  } catch (error) {
    lines.push({ ok: false, text: `типы связей не прочитаны: ${reason(error)}` });
    return;
  }
  for (const [alias, name] of wanted) {
    const type = known.find((t) => t.name.trim().toLowerCase() === name.trim().toLowerCase());
    lines.push(
      type
        ? { ok: true, text: `тип связи «${name}» (${alias}): ${type.outward} / ${type.inward}` }
        : { ok: false, text: `тип связи «${name}» (${alias}) из настроек хаба в Jira не найден; есть: ${known.map((t) => t.name).join(', ') || 'нет'}` },
    );
  }
}

async function checkFields(api: JiraApi, settings: AgentSettings, lines: CheckLine[]): Promise<void> {
  for (const name of settings.fields ?? []) {
    try {
      const found = await api.lookupField(name);
      if (!found) lines.push({ ok: false, text: `поле «${name}» из настроек хаба в Jira не найдено` });
      else if ('ambiguous' in found) lines.push({ ok: false, text: ambiguousFieldText(name, found.ambiguous) });
      else if (/^customfield_\d+$/.test(name) && !(await api.fieldMeta(name))) lines.push({ ok: false, text: `поле ${name} из настроек хаба в Jira не найдено` });
      else lines.push({ ok: true, text: `поле «${name}» → ${found.id}` });
    } catch (error) {
      lines.push({ ok: false, text: `поле «${name}» не проверено: ${reason(error)}` });
    }
  }
}

async function checkBoards(api: JiraApi, project: string, lines: CheckLine[]): Promise<void> {
  let boards: JiraBoard[];
  try {
    boards = (await api.boards(project)).filter((b) => b.type?.toLowerCase() !== 'kanban');
  } catch (error) {
    lines.push({ ok: false, text: `доски проекта ${project} не прочитаны: ${reason(error)}` });
    return;
  }
  if (boards.length === 0) {
    lines.push({ ok: true, text: `досок со спринтами в проекте ${project} нет: команды ensure_sprint будут завершаться ошибкой` });
    return;
  }
  for (const board of boards) {
    try {
      const sprints = await api.sprints(board.id, 'active,future');
      lines.push({ ok: true, text: `доска «${board.name}» (id ${board.id}): активных и будущих спринтов ${sprints.length}` });
    } catch (error) {
      if (error instanceof JiraHttpError && error.status === 400) lines.push({ ok: true, text: `доска «${board.name}» (id ${board.id}): без спринтов` });
      else lines.push({ ok: false, text: `спринты доски «${board.name}» (id ${board.id}) не прочитаны: ${reason(error)}` });
    }
  }
}

/**
 * The checklist as printed: a title, one ✓/✗ line each, and a verdict. A ✗ about a queued command (a status
 * it names) does not keep the agent from working: that command fails on its own when run, so the verdict
 * says so rather than that the agent cannot work.
 */
export function formatChecklist(title: string, lines: CheckLine[]): string {
  const failed = lines.filter((l) => !l.ok);
  const ofAgent = failed.filter((l) => !l.command).length;
  const ofCommands = failed.length - ofAgent;
  const verdict =
    failed.length === 0
      ? 'Итог: всё в порядке'
      : ofAgent > 0
        ? `Итог: проблем ${failed.length} — агент с такими настройками работать не сможет`
        : `Итог: проблем ${ofCommands} — в командах очереди, не в настройках агента: он работать будет, а эти команды завершатся ошибкой, когда до них дойдёт очередь`;
  return [title, ...lines.map((l) => `${l.ok ? '✓' : '✗'} ${l.text}`), verdict].join('\n');
}
