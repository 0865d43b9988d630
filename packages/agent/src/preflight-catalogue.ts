/**
 * The part of `--check` that reads what the catalogue reads (issue 20): create screens and their required
 * fields per issue type, the Data Center Epic Link and the sprint field, a test search, and whether each
 * status the queued commands name is in the project's workflows and reachable from a new issue's status.
 */
import type { Catalogue, CatalogueTypeConfig, QueuedStatusTarget } from '@jira-hub/contracts';
import { readCatalogue } from './catalogue/read.js';
import { sameStatus } from '@jira-hub/contracts/catalogue';
import type { JiraApi } from './jira-api.js';
import type { CheckLine } from './preflight.js';

const EPIC_LINK_SCHEMA = 'com.pyxis.greenhopper.jira:gh-epic-link';
const SPRINT_SCHEMA = 'com.pyxis.greenhopper.jira:gh-sprint';
/** Fields every create has (or Jira fills): not worth a line. */
const ALWAYS_GIVEN = new Set(['project', 'issuetype', 'summary', 'reporter']);

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function checkCatalogue(api: JiraApi, project: string, statuses: QueuedStatusTarget[], lines: CheckLine[]): Promise<void> {
  let catalogue: Catalogue;
  try {
    // Transitions are observed issue by issue (many searches on a big project): only when a status is to be checked.
    catalogue = await readCatalogue(api, project, { observe: statuses.length > 0 });
  } catch (error) {
    lines.push({ ok: false, text: `конфигурация проекта ${project} (экраны создания, процессы) не прочитана: ${reason(error)}` });
    return;
  }
  for (const type of catalogue.issue_types) {
    const required = (catalogue.per_type[type.id]?.create ?? []).filter((f) => f.required && !f.has_default && !ALWAYS_GIVEN.has(f.field_id));
    lines.push({
      ok: true,
      text: required.length
        ? `тип «${type.name}»: при создании обязательны ${required.map((f) => `«${f.name}» (${f.field_id})`).join(', ')} — передавайте их в fields команды ensure_issue`
        : `тип «${type.name}»: экран создания прочитан, обязательна только тема`,
    });
  }
  fieldLines(catalogue, lines);
  await searchLine(api, project, lines);
  for (const target of statuses) lines.push(...statusLines(catalogue, target));
}

/** DC: the Epic Link field (how an issue goes into an epic there); both flavors: the sprint field, when there are boards. */
function fieldLines(catalogue: Catalogue, lines: CheckLine[]): void {
  const bySchema = (custom: string) => catalogue.fields.find((f) => f.schema?.custom === custom);
  if (catalogue.flavor === 'dc' && catalogue.issue_types.some((t) => t.hierarchy_level === 1)) {
    const epicLink = bySchema(EPIC_LINK_SCHEMA);
    lines.push(
      epicLink
        ? { ok: true, text: `поле Epic Link: ${epicLink.id} (через него задача попадает в эпик)` }
        : { ok: false, text: 'в проекте есть эпики, но поля Epic Link в Jira нет: ensure_issue с эпиком-родителем не выполнится' },
    );
  }
  if (catalogue.boards.some((b) => b.type?.toLowerCase() !== 'kanban')) {
    const sprint = bySchema(SPRINT_SCHEMA);
    lines.push(sprint ? { ok: true, text: `поле спринта: ${sprint.id}` } : { ok: false, text: 'у проекта есть доски со спринтами, но поля спринта в Jira нет: спринты задач не прочитать' });
  }
}

async function searchLine(api: JiraApi, project: string, lines: CheckLine[]): Promise<void> {
  try {
    const last = await api.first(`project = "${project.replace(/["\\]/g, '\\$&')}" ORDER BY key DESC`, ['summary']);
    lines.push({ ok: true, text: last ? `тестовый поиск по проекту работает (последняя задача ${last.key})` : `тестовый поиск по проекту работает (задач пока нет)` });
  } catch (error) {
    lines.push({ ok: false, text: `тестовый поиск по проекту ${project} не удался: ${reason(error)}` });
  }
}

/** The fewest transitions from a new issue's status to `target` by the known edges, or null. */
export function routeTo(config: CatalogueTypeConfig, target: string): string[] | null {
  const start = config.initial_status ?? config.statuses.find((s) => s.category === 'new')?.name;
  if (!start) return null;
  const seen = new Map<string, string[]>([[start.toLowerCase(), [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift()!;
    const path = seen.get(at.toLowerCase())!;
    if (sameStatus(at, target)) return path;
    for (const edge of config.transitions) {
      if (edge.from !== null && !sameStatus(edge.from, at)) continue;
      if (seen.has(edge.to.toLowerCase())) continue;
      seen.set(edge.to.toLowerCase(), [...path, edge.to]);
      queue.push(edge.to);
    }
  }
  return null;
}

/**
 * The lines of one status the queued commands walk to: for each issue type whose issues they walk there,
 * whether that type's workflow has it and reaches it; for issues of a type the hub does not know, whether
 * any workflow of the project does.
 */
function statusLines(catalogue: Catalogue, target: QueuedStatusTarget): CheckLine[] {
  const name = target.status;
  const lines: CheckLine[] = [];
  for (const typeName of target.issue_types) {
    const type = catalogue.issue_types.find((t) => t.name.toLowerCase() === typeName.toLowerCase());
    const statuses = type ? (catalogue.per_type[type.id]?.statuses ?? []).map((s) => s.name) : [];
    if (!type) {
      const known = catalogue.issue_types.map((t) => t.name).join(', ') || 'нет';
      lines.push({ ok: false, command: true, text: `статус «${name}»: типа задач «${typeName}» (команды в очереди ведут туда задачи этого типа) в проекте нет; есть: ${known}` });
    } else if (!statuses.some((s) => sameStatus(s, name))) {
      lines.push({ ok: false, command: true, text: `статус «${name}» не найден в процессе типа «${type.name}» (команды в очереди ведут туда задачи этого типа); есть: ${statuses.join(', ') || 'нет'}` });
    } else lines.push(reachLine(catalogue, name, [type]));
  }
  if (target.unknown_type || target.issue_types.length === 0) lines.push(anyTypeLine(catalogue, name));
  return lines;
}

/** A status walked by issues of unknown type: in some workflow of the project, and reachable there. */
function anyTypeLine(catalogue: Catalogue, name: string): CheckLine {
  const types = catalogue.issue_types.filter((t) => catalogue.per_type[t.id]?.statuses.some((s) => sameStatus(s.name, name)));
  if (types.length === 0) {
    const known = [...new Set(Object.values(catalogue.per_type).flatMap((c) => c.statuses.map((s) => s.name)))];
    return { ok: false, command: true, text: `статус «${name}» (его называют команды в очереди) не найден в процессах проекта; есть: ${known.join(', ') || 'нет'}` };
  }
  return reachLine(catalogue, name, types);
}

/** Whether a status that the workflows of `types` have is reachable from a new issue's status in them. */
function reachLine(catalogue: Catalogue, name: string, types: Catalogue['issue_types']): CheckLine {
  const routes = types.flatMap((t) => {
    const route = routeTo(catalogue.per_type[t.id]!, name);
    return route ? [`${t.name}: ${route.join(' → ')}`] : [];
  });
  if (routes.length > 0) return { ok: true, text: `статус «${name}» достижим (${routes.join('; ')})` };
  if (catalogue.transitions_source === 'observed') {
    return { ok: true, text: `статус «${name}» есть в процессе (${types.map((t) => t.name).join(', ')}), но путь к нему пока не наблюдался: агент видит переходы только из статусов, в которых есть задачи` };
  }
  return { ok: false, command: true, text: `статус «${name}» недостижим из начального статуса по переходам процесса (${types.map((t) => t.name).join(', ')})` };
}
