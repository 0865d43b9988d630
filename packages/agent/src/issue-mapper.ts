import type { JiraApi, JiraIssue } from './jira-api.js';
import { readValue, type ResolvedField } from './field-values.js';
import type { HubIssue, HubLink } from './types.js';
import { SPRINT_STATES, type SprintRef, type SprintState } from '@jira-hub/contracts';

/** Fields a refresh asks for, besides the sprint field and the custom fields from settings. */
export const REFRESH_FIELDS = ['summary', 'issuetype', 'status', 'assignee', 'priority', 'duedate', 'labels', 'created', 'updated', 'description', 'parent', 'issuelinks'];

/** Jira's "2026-10-13T10:00:00.000+0300" → ISO-8601 UTC "2026-10-13T07:00:00.000Z" (sorts as text). */
export function toIsoUtc(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export interface SprintInfo {
  name: string;
  state: string;
  /** Jira's sprint id (null when the value did not carry one) */
  id: number | null;
  /** the sprint's board: `boardId` (Cloud), `originBoardId`, or `rapidViewId` (DC); null when not given */
  boardId: number | null;
}

const idOf = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** Sprints of the sprint field: objects on Cloud (and newer DC), "…Sprint@…[id=1,rapidViewId=1,…,state=ACTIVE,name=…,startDate=…]" strings on older DC (the id last on the oldest). */
export function parseSprints(value: unknown): SprintInfo[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): SprintInfo[] => {
    if (item && typeof item === 'object') {
      const s = item as { name?: unknown; state?: unknown; id?: unknown; boardId?: unknown; originBoardId?: unknown; rapidViewId?: unknown };
      return typeof s.name === 'string' ? [{ name: s.name, state: String(s.state ?? '').toLowerCase(), id: idOf(s.id), boardId: idOf(s.boardId ?? s.originBoardId ?? s.rapidViewId) }] : [];
    }
    if (typeof item === 'string') {
      const name = /[[,]name=(.*?),(?:startDate|endDate|completeDate|activatedDate|sequence|goal)=/.exec(item)?.[1];
      const state = /[[,]state=([A-Za-z]+)/.exec(item)?.[1] ?? '';
      // id first (Jira 7 and later), or last of all (JIRA Agile 6: "[rapidViewId=<null>,state=…,name=…,completeDate=…,id=107]")
      const id = idOf((/\[id=(\d+)[,\]]/.exec(item) ?? /,id=(\d+)\]\s*$/.exec(item))?.[1]);
      const boardId = idOf(/[[,]rapidViewId=(\d+)[,\]]/.exec(item)?.[1]);
      return name === undefined ? [] : [{ name, state: state.toLowerCase(), id, boardId }];
    }
    return [];
  });
}

/** The sprint the issue is planned in: the active one, else a future one, else the last one listed. */
export function currentSprint(value: unknown): SprintInfo | null {
  const sprints = parseSprints(value);
  return sprints.find((s) => s.state === 'active') ?? sprints.find((s) => s.state === 'future') ?? sprints.at(-1) ?? null;
}

/**
 * A sprint as the change record holds it (SPEC 17.1, decision 1430): its id, name and board, so that a revert
 * finds this very sprint when its name is on several boards; only the name when Jira gave no id.
 */
export function sprintRef(sprint: SprintInfo | null): SprintRef | string | null {
  if (!sprint) return null;
  return sprint.id === null ? sprint.name : { id: sprint.id, name: sprint.name, board_id: sprint.boardId };
}

/** The sprint's state as the hub takes it; null when Jira gave none it knows. */
const stateOf = (sprint: SprintInfo | null): SprintState | null => (sprint && SPRINT_STATES.includes(sprint.state as SprintState) ? (sprint.state as SprintState) : null);

function nameOf(value: unknown): string | null {
  return value && typeof value === 'object' ? ((value as { name?: string }).name ?? null) : null;
}

/**
 * A Jira issue in SPEC 4's Issue shape; `fields` carries description, parent and the settings' custom fields.
 * `parent` is the sub-task's parent or, on Data Center, the epic of the Epic Link field (`epicLinkFieldId`).
 */
export function toHubIssue(api: JiraApi, issue: JiraIssue, sprintFieldId: string | null, customFields: ResolvedField[], epicLinkFieldId: string | null = null): HubIssue {
  const f = issue.fields;
  const epic = epicLinkFieldId ? f[epicLinkFieldId] : undefined;
  const sprint = sprintFieldId ? currentSprint(f[sprintFieldId]) : null;
  const extra: Record<string, unknown> = {
    description: readValue(api, { name: 'description', id: 'description' }, f.description),
    parent: (f.parent as { key?: string } | undefined)?.key ?? (typeof epic === 'string' && epic !== '' ? epic : null),
  };
  for (const field of customFields) extra[field.name] = readValue(api, field, f[field.id]);
  return {
    key: issue.key,
    summary: typeof f.summary === 'string' ? f.summary : null,
    issue_type: nameOf(f.issuetype),
    status: nameOf(f.status),
    sprint: sprint?.name ?? null,
    // Which sprint of that name (decision 1430): names repeat across boards.
    sprint_id: sprint?.id ?? null,
    sprint_board_id: sprint?.id == null ? null : sprint.boardId,
    // A closed sprint here means no open one is listed: the issue is in the backlog (decision 1434).
    sprint_state: stateOf(sprint),
    assignee: api.userId(f.assignee),
    priority: nameOf(f.priority),
    duedate: typeof f.duedate === 'string' ? f.duedate : null,
    labels: Array.isArray(f.labels) ? f.labels.map(String) : [],
    created: toIsoUtc(f.created),
    updated: toIsoUtc(f.updated),
    fields: extra,
  };
}

/** Links of an issue normalized to "source ⟨outward⟩ target": an `outwardIssue` entry means this issue is the source. */
export function linksOf(issue: JiraIssue): HubLink[] {
  const entries = Array.isArray(issue.fields.issuelinks) ? issue.fields.issuelinks : [];
  return entries.flatMap((entry): HubLink[] => {
    const e = entry as { type?: { name?: string }; outwardIssue?: { key?: string }; inwardIssue?: { key?: string } };
    const type = e.type?.name;
    if (!type) return [];
    if (e.outwardIssue?.key) return [{ source_key: issue.key, target_key: e.outwardIssue.key, link_type: type }];
    if (e.inwardIssue?.key) return [{ source_key: e.inwardIssue.key, target_key: issue.key, link_type: type }];
    return [];
  });
}

/** linksOf with Jira's link id (what DELETE /issueLink/{id} takes). */
export function linksWithIds(issue: JiraIssue): Array<HubLink & { id: string | null }> {
  const entries = Array.isArray(issue.fields.issuelinks) ? issue.fields.issuelinks : [];
  return entries.flatMap((entry) => {
    const id = (entry as { id?: unknown }).id;
    return linksOf({ ...issue, fields: { issuelinks: [entry] } }).map((l) => ({ ...l, id: id === undefined || id === null ? null : String(id) }));
  });
}

/** Keeps the first of each (source, target, type): a link between two refreshed issues appears on both. */
export function uniqueLinks(links: HubLink[]): HubLink[] {
  const seen = new Set<string>();
  return links.filter((link) => {
    const id = `${link.source_key}\u0000${link.target_key}\u0000${link.link_type}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
