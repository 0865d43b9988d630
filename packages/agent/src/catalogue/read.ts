/**
 * refresh_catalogue (SPEC 16.1): the project's configuration as Jira tells it, in one pass. The fields,
 * link types, boards and open sprints it reads are kept for the commands (JiraApi.remember), so they are
 * not read again per command.
 */
import type { Catalogue, CatalogueIssueType, CatalogueSprint, CatalogueStatus, CatalogueTransition, CatalogueTypeConfig } from '@jira-hub/contracts';
import { JiraHttpError } from '../jira-client.js';
import type { JiraApi, JiraBoard, JiraSprint } from '../jira-api.js';
import { assignableUsers, componentNames, createMetaTypes, createScreen, editScreen, permissions, statusesByType, versionNames, workflowTransitions } from './jira-meta.js';

const jqlString = (text: string): string => `"${text.replace(/["\\]/g, '\\$&')}"`;

/** Jira's hierarchy level (Cloud gives it; DC: sub-task −1, Epic 1 by name, else 0). */
const hierarchyOf = (t: { name: string; subtask?: boolean; hierarchyLevel?: number }): number =>
  t.hierarchyLevel ?? (t.subtask ? -1 : t.name.trim().toLowerCase() === 'epic' ? 1 : 0);

export interface ReadOptions {
  /** Observe transitions issue by issue when the workflow API is closed (default true; `--check` skips it when no status is to be checked). */
  observe?: boolean;
  now?: () => Date;
}

export async function readCatalogue(api: JiraApi, project: string, options: ReadOptions = {}): Promise<Catalogue> {
  const now = options.now ?? (() => new Date());
  const observe = options.observe ?? true;
  const { id: projectId } = await api.project(project);
  const fields = await api.client.api<Array<{ id: string; name: string; custom: boolean; schema?: Catalogue['fields'][number]['schema']; scope?: Catalogue['fields'][number]['scope'] }>>('GET', '/field');
  const types = await createMetaTypes(api, project);
  const issueTypes: CatalogueIssueType[] = types.map((t) => ({ id: t.id, name: t.name, subtask: t.subtask === true, hierarchy_level: hierarchyOf(t) }));
  const statuses = await statusesByType(api, project);
  const statusNames = new Map([...statuses.values()].flat().map((s) => [s.id, s.name]));
  const workflow = await workflowTransitions(api, projectId, types.map((t) => t.id), statusNames);

  const perType: Record<string, CatalogueTypeConfig> = {};
  let priorities: string[] = [];
  for (const type of types) {
    const create = await createScreen(api, project, type.id);
    priorities = priorities.length > 0 ? priorities : (create.find((f) => f.field_id === 'priority')?.allowed_values ?? []);
    const typeStatuses = statuses.get(type.id) ?? [];
    const observed = workflow || !observe ? null : await observeTransitions(api, project, type.name, typeStatuses, now);
    const sample = observed?.sample ?? (await api.first(`project = ${jqlString(project)} AND issuetype = ${jqlString(type.name)} ORDER BY key DESC`, ['status']));
    perType[type.id] = {
      create,
      edit: sample ? await editScreen(api, sample.key) : null,
      statuses: typeStatuses,
      initial_status: workflow?.initial.get(type.id) ?? typeStatuses.find((s) => s.category === 'new')?.name ?? null,
      transitions: workflow?.transitions.get(type.id) ?? observed?.transitions ?? [],
    };
  }

  const linkTypes = (await api.client.api<{ issueLinkTypes: Array<{ id: string; name: string; inward: string; outward: string }> }>('GET', '/issueLinkType')).issueLinkTypes;
  api.remember({ fields: fields.map((f) => ({ ...f, custom: f.custom === true, schema: f.schema ?? undefined, scope: f.scope ?? undefined })), linkTypes });
  api.forgetAgile();
  const boards = await api.boards(project);
  const sprints = await openSprints(api, boards);
  const assignable = await assignableUsers(api, project);

  return {
    project_key: project,
    flavor: api.flavor,
    issue_types: issueTypes,
    // As the commands look names up (JiraApi.lookupField): another team-managed project's own fields left out,
    // so the hub's checks find a name as ambiguous exactly when the agent would refuse it.
    fields: fields
      .filter((f) => f.scope?.type !== 'PROJECT' || f.scope.project?.id === projectId || f.scope.project?.key === project)
      .map((f) => ({ id: f.id, name: f.name, schema: f.schema ?? null, ...(f.scope ? { scope: f.scope } : {}) })),
    per_type: perType,
    transitions_source: workflow ? 'workflow' : 'observed',
    link_types: linkTypes.map(({ id, name, inward, outward }) => ({ id, name, inward, outward })),
    boards: boards.map((b) => ({ id: b.id, name: b.name, ...(b.type ? { type: b.type } : {}) })),
    sprints,
    priorities,
    components: await componentNames(api, project),
    versions: await versionNames(api, project),
    permissions: await permissions(api, project),
    assignable: assignable.users,
    assignable_truncated: assignable.truncated,
  };
}

/** Active and future sprints of the boards that have sprints (kanban boards are not asked; a board without sprints answers 400). */
async function openSprints(api: JiraApi, boards: JiraBoard[]): Promise<CatalogueSprint[]> {
  const seen = new Map<number, CatalogueSprint>();
  for (const board of boards.filter((b) => b.type?.toLowerCase() !== 'kanban')) {
    let sprints: JiraSprint[];
    try {
      sprints = await api.sprints(board.id, 'active,future');
    } catch (error) {
      if (error instanceof JiraHttpError && error.status === 400) continue;
      throw error;
    }
    for (const s of sprints) if (!seen.has(s.id)) seen.set(s.id, { id: s.id, name: s.name, state: s.state as CatalogueSprint['state'], board_id: board.id });
  }
  return [...seen.values()];
}

/**
 * The transitions of an issue type as Jira offers them: one issue of the type in each of its statuses
 * (a search of one result), its GET /transitions with the screens' fields; each edge with `observed_at`.
 * A status no issue is in yet gives no edges from it. `sample`: an issue of the type, for its edit screen.
 */
async function observeTransitions(
  api: JiraApi,
  project: string,
  typeName: string,
  statuses: CatalogueStatus[],
  now: () => Date,
): Promise<{ transitions: CatalogueTransition[]; sample: { key: string } | undefined }> {
  const transitions: CatalogueTransition[] = [];
  let sample: { key: string } | undefined;
  for (const status of statuses) {
    const issue = await api.first(`project = ${jqlString(project)} AND issuetype = ${jqlString(typeName)} AND status = ${jqlString(status.name)}`, ['status']);
    if (!issue) continue;
    sample ??= issue;
    const observedAt = now().toISOString();
    for (const t of await api.transitions(issue.key)) {
      const required = Object.entries(t.fields ?? {}).filter(([, meta]) => meta.required && !meta.hasDefaultValue).map(([id]) => id);
      transitions.push({ from: status.name, to: t.to.name, id: t.id, name: t.name, required_fields: required, observed_at: observedAt });
    }
  }
  return { transitions, sample };
}
