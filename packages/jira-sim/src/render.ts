import { encodeBody, encodeCustomValue, encodeUser } from './codec.js';
import type { SimStore } from './store.js';
import { statusCategory, statusId } from './workflow.js';
import type { Flavor, SimSprint, StoredComment, StoredIssue, StoredLink } from './types.js';

/** Jira's timestamp format: 2026-10-13T10:00:00.000+0000. */
export function jiraTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

export interface RenderContext {
  store: SimStore;
  flavor: Flavor;
  baseUrl: string;
}

function apiBase(ctx: RenderContext): string {
  return `${ctx.baseUrl}/rest/api/${ctx.flavor === 'cloud' ? 3 : 2}`;
}

/**
 * Which fields to return: undefined = `defaults` ('all' for GET issue, 'all' for DC search, none for Cloud /search/jql);
 * otherwise a comma list with *all / *navigable / names; "-name" removes a field.
 */
export function fieldFilter(param: string | string[] | undefined, defaults: 'all' | 'none'): (field: string) => boolean {
  const list = (Array.isArray(param) ? param : param === undefined ? [] : param.split(',')).map((f) => f.trim()).filter(Boolean);
  if (list.length === 0) return () => defaults === 'all';
  const all = list.includes('*all') || list.includes('*navigable');
  const included = new Set(list.filter((f) => !f.startsWith('-')));
  const excluded = new Set(list.filter((f) => f.startsWith('-')).map((f) => f.slice(1)));
  return (field) => !excluded.has(field) && (all || included.has(field));
}

export function renderSprint(sprint: SimSprint, flavor: Flavor): unknown {
  if (flavor === 'cloud') return { id: sprint.id, name: sprint.name, state: sprint.state, boardId: sprint.boardId, goal: sprint.goal ?? '' };
  // Jira Server/DC returns the sprint field as toString() of the Java object.
  return `com.atlassian.greenhopper.service.sprint.Sprint@1b2c3d[id=${sprint.id},rapidViewId=${sprint.boardId},state=${sprint.state.toUpperCase()},name=${sprint.name},startDate=<null>,endDate=<null>,completeDate=<null>,sequence=${sprint.id},goal=${sprint.goal ?? ''}]`;
}

function issueRef(issue: StoredIssue, ctx: RenderContext): unknown {
  return {
    id: issue.id,
    key: issue.key,
    self: `${apiBase(ctx)}/issue/${issue.id}`,
    fields: {
      summary: issue.summary,
      status: renderStatus(issue.status, ctx),
      issuetype: renderIssueType(issue.issueType, ctx),
      priority: issue.priority === null ? null : { name: issue.priority },
    },
  };
}

function renderStatus(name: string, ctx: RenderContext): unknown {
  const category = statusCategory(ctx.store.seed, name);
  return { id: statusId(ctx.store.seed, name), name, statusCategory: { key: category, name: CATEGORY_NAME[category] } };
}

const CATEGORY_NAME = { new: 'To Do', indeterminate: 'In Progress', done: 'Done' } as const;

function renderIssueType(name: string, ctx: RenderContext): unknown {
  return { id: String(ctx.store.seed.issueTypes.indexOf(name) + 1), name, subtask: name === 'Sub-task' };
}

/** One entry of `fields.issuelinks` as seen from `viewer`: the other end is `outwardIssue` when viewer is the source. */
export function renderLink(link: StoredLink, viewerKey: string, ctx: RenderContext): unknown {
  const type = ctx.store.seed.linkTypes.find((t) => t.name === link.typeName)!;
  const entry: Record<string, unknown> = {
    id: link.id,
    self: `${apiBase(ctx)}/issueLink/${link.id}`,
    type: { id: type.id, name: type.name, inward: type.inward, outward: type.outward, self: `${apiBase(ctx)}/issueLinkType/${type.id}` },
  };
  if (link.sourceKey === viewerKey) entry.outwardIssue = issueRef(ctx.store.requireIssue(link.targetKey), ctx);
  else entry.inwardIssue = issueRef(ctx.store.requireIssue(link.sourceKey), ctx);
  return entry;
}

export function renderIssue(issue: StoredIssue, ctx: RenderContext, include: (field: string) => boolean): unknown {
  const { store, flavor } = ctx;
  const project = store.seed.projects.find((p) => p.key === issue.projectKey)!;
  const sprints = store.sprintIdsOf(issue).map((id) => store.findSprint(id)).filter((s): s is SimSprint => s !== undefined);
  const parent = issue.parent ? store.findIssue(issue.parent) : undefined;
  const all: Record<string, unknown> = {
    summary: issue.summary,
    description: encodeBody(issue.description, flavor),
    issuetype: renderIssueType(issue.issueType, ctx),
    status: renderStatus(issue.status, ctx),
    project: { id: project.id, key: project.key, name: project.name },
    assignee: encodeUser(issue.assignee, flavor, store),
    reporter: encodeUser(issue.reporter, flavor, store),
    priority: issue.priority === null ? null : { id: String(store.seed.priorities.indexOf(issue.priority) + 1), name: issue.priority },
    duedate: issue.duedate,
    labels: issue.labels,
    created: jiraTime(issue.createdAtMs),
    updated: jiraTime(issue.updatedAtMs),
    issuelinks: store.linksOf(issue.key).map((link) => renderLink(link, issue.key, ctx)),
    [store.seed.sprintFieldId]: sprints.length === 0 ? null : sprints.map((s) => renderSprint(s, flavor)),
  };
  const resolution = issue.custom.resolution as string | null | undefined;
  all.resolution = resolution ? { id: String(store.resolutions().indexOf(resolution) + 1), name: resolution } : null;
  all.environment = encodeBody((issue.custom.environment as string | null | undefined) ?? null, flavor);
  for (const id of ['components', 'fixVersions', 'versions']) {
    const known = id === 'components' ? (store.seed.components ?? []) : (store.seed.versions ?? []);
    all[id] = ((issue.custom[id] as string[] | undefined) ?? []).map((name) => ({ id: String(known.indexOf(name) + 1), name }));
  }
  // Cloud: `parent` for sub-tasks and epics alike. DC: `parent` for a sub-task only; an epic is the Epic Link field's.
  const viaEpicLink = flavor === 'dc' && issue.issueType !== 'Sub-task' && store.seed.epicLinkFieldId !== undefined;
  if (parent && !viaEpicLink) all.parent = issueRef(parent, ctx);
  for (const field of store.seed.customFields) {
    if (field.id === store.seed.sprintFieldId) continue;
    if (field.id === store.seed.epicLinkFieldId) {
      if (flavor === 'dc') all[field.id] = viaEpicLink && parent ? parent.key : null;
      continue;
    }
    all[field.id] = encodeCustomValue(field, issue.custom[field.id], flavor, store, ctx.baseUrl);
  }
  // Jira's `subtasks`: the issue's sub-tasks, each as a reference (read only when asked for: it scans the store).
  if (include('subtasks')) all.subtasks = store.listIssues().filter((i) => i.parent === issue.key && i.issueType === 'Sub-task').map((sub) => issueRef(sub, ctx));
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(all)) if (include(name)) fields[name] = value;
  return { id: issue.id, key: issue.key, self: `${apiBase(ctx)}/issue/${issue.id}`, fields };
}

export function renderComment(comment: StoredComment, ctx: RenderContext): unknown {
  const author = encodeUser(comment.author, ctx.flavor, ctx.store);
  const issue = ctx.store.requireIssue(comment.issueKey);
  return {
    id: comment.id,
    self: `${apiBase(ctx)}/issue/${issue.id}/comment/${comment.id}`,
    author,
    updateAuthor: author,
    body: encodeBody(comment.body, ctx.flavor),
    created: jiraTime(comment.createdAtMs),
    updated: jiraTime(comment.createdAtMs),
  };
}
