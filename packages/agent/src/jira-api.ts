import { adfToText, textToAdf } from './adf.js';
import { JiraHttpError, type JiraClient } from './jira-client.js';

export interface JiraIssue {
  id: string;
  key: string;
  fields: Record<string, unknown>;
}

export interface JiraTransition {
  id: string;
  name: string;
  to: { id?: string; name: string };
  /** The transition screen's fields (asked with expand=transitions.fields). */
  fields?: Record<string, { required?: boolean; hasDefaultValue?: boolean; name?: string; allowedValues?: Array<{ id?: string; name?: string; value?: string }> }>;
}

export interface JiraFieldMeta {
  id: string;
  name: string;
  custom: boolean;
  schema?: { type?: string; custom?: string; system?: string; items?: string };
  /** Cloud: the project a team-managed project's own field belongs to */
  scope?: { type?: string; project?: { id?: string; key?: string } };
}

export interface JiraLinkType {
  id: string;
  name: string;
  inward: string;
  outward: string;
}

export interface JiraBoard {
  id: number;
  name: string;
  type?: string;
}

export interface JiraSprint {
  id: number;
  name: string;
  state: string;
  /** the board the sprint was made on (the agile API gives it) */
  originBoardId?: number;
}

interface PageOfValues<T> {
  values: T[];
  isLast?: boolean;
  startAt?: number;
  maxResults?: number;
  total?: number;
}

const SPRINT_SCHEMA = 'com.pyxis.greenhopper.jira:gh-sprint';
const EPIC_LINK_SCHEMA = 'com.pyxis.greenhopper.jira:gh-epic-link';

export interface JiraIssueType {
  id: string;
  name: string;
  subtask: boolean;
}

/** A settings field name looked up in GET /field: one id, several candidates (Jira allows equal names), or none. */
export type FieldLookup = { id: string } | { ambiguous: string[] } | null;
const PAGE_SIZE = 50;
/** A safety bound on paging loops (a server that never says "last"). */
const MAX_PAGES = 1000;
/** Searches may be a whole project: 100,000 pages of 50 is five million issues. */
const MAX_SEARCH_PAGES = 100_000;

const apis = new WeakMap<JiraClient, JiraApi>();

/**
 * Jira operations for both flavors over one JiraClient:
 * Cloud v3 (ADF bodies, users by accountId, /search/jql with nextPageToken) and
 * DC v2 (plain-text bodies, users by name, /search with startAt).
 */
export class JiraApi {
  private fieldsCache: JiraFieldMeta[] | undefined;
  private linkTypesCache: JiraLinkType[] | undefined;
  private readonly projectCache = new Map<string, { id: string; issueTypes: JiraIssueType[] }>();
  /** Boards per project and open sprints per board, read once and again on a miss (see boards, sprints). */
  private readonly boardsCache = new Map<string, JiraBoard[]>();
  private readonly sprintsCache = new Map<string, JiraSprint[]>();
  /** The field list was read again for a missing name since the last clearFieldCache (once per settings version). */
  private refetchedForMissing = false;

  private constructor(readonly client: JiraClient) {}

  /** One JiraApi per client, so field metadata is read once per agent run. */
  static for(client: JiraClient): JiraApi {
    let api = apis.get(client);
    if (!api) {
      api = new JiraApi(client);
      apis.set(client, api);
    }
    return api;
  }

  get flavor(): 'cloud' | 'dc' {
    return this.client.flavor;
  }

  // ---- bodies and users ----------------------------------------------------------------------

  encodeText(text: string): unknown {
    return this.flavor === 'cloud' ? textToAdf(text) : text;
  }

  decodeText(body: unknown): string {
    if (body === null || body === undefined) return '';
    return typeof body === 'string' ? body : adfToText(body);
  }

  /** The identifier the hub uses for a user: accountId on Cloud, user name on DC. */
  userId(user: unknown): string | null {
    if (!user || typeof user !== 'object') return null;
    const u = user as { accountId?: string; name?: string };
    return (this.flavor === 'cloud' ? u.accountId : u.name) ?? null;
  }

  userRef(id: string | null): unknown {
    if (id === null) return null;
    return this.flavor === 'cloud' ? { accountId: id } : { name: id };
  }

  // ---- issues --------------------------------------------------------------------------------

  getIssue(key: string, fields: string[]): Promise<JiraIssue> {
    return this.client.api<JiraIssue>('GET', `/issue/${encodeURIComponent(key)}`, { query: { fields: fields.join(',') }, subject: key, issueKeys: [key] });
  }

  /** The issue, or null when Jira answers 404. */
  async findIssue(key: string, fields: string[]): Promise<JiraIssue | null> {
    try {
      return await this.getIssue(key, fields);
    } catch (error) {
      if (error instanceof JiraHttpError && error.status === 404) return null;
      throw error;
    }
  }

  createIssue(fields: Record<string, unknown>): Promise<{ id: string; key: string }> {
    return this.client.api('POST', '/issue', { body: { fields } });
  }

  async editIssue(key: string, fields: Record<string, unknown>): Promise<void> {
    await this.client.api('PUT', `/issue/${encodeURIComponent(key)}`, { body: { fields }, subject: key, issueKeys: [key] });
  }

  /** The first issue the JQL finds (one request of one result), or undefined. */
  async first(jql: string, fields: string[]): Promise<JiraIssue | undefined> {
    for await (const page of this.searchPages(jql, fields, 1, 1)) return page.issues[0];
    return undefined;
  }

  /** Every issue the JQL finds, page by page (Cloud: POST /search/jql + nextPageToken; DC: POST /search + startAt). */
  async search(jql: string, fields: string[], maxPages = MAX_SEARCH_PAGES): Promise<JiraIssue[]> {
    const found: JiraIssue[] = [];
    for await (const page of this.searchPages(jql, fields, maxPages)) found.push(...page.issues);
    return found;
  }

  /**
   * The pages of a search, one request each, so a caller can stop early; `last` is true on the final page
   * (false on the page the `maxPages` bound cuts a longer result at).
   */
  async *searchPages(jql: string, fields: string[], maxPages = MAX_SEARCH_PAGES, pageSize = PAGE_SIZE): AsyncGenerator<{ issues: JiraIssue[]; last: boolean }> {
    if (this.flavor === 'cloud') {
      let nextPageToken: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const answer = await this.client.api<{ issues: JiraIssue[]; nextPageToken?: string; isLast?: boolean }>('POST', '/search/jql', {
          body: { jql, fields, maxResults: pageSize, ...(nextPageToken ? { nextPageToken } : {}) },
          idempotent: true,
        });
        nextPageToken = answer.nextPageToken;
        const last = answer.isLast === true || !nextPageToken || answer.issues.length === 0;
        yield { issues: answer.issues, last };
        if (last) return;
      }
      return;
    }
    let startAt = 0;
    for (let page = 0; page < maxPages; page++) {
      const answer = await this.client.api<{ issues: JiraIssue[]; total: number }>('POST', '/search', {
        // validateQuery false (legacy synonym of "warn", understood by every DC version): a key that does not
        // exist is a warning instead of a 400 for the whole query.
        body: { jql, fields, startAt, maxResults: pageSize, validateQuery: false },
        idempotent: true,
      });
      startAt += answer.issues.length;
      const last = answer.issues.length === 0 || startAt >= answer.total;
      yield { issues: answer.issues, last };
      if (last) return;
    }
  }

  /**
   * Cloud only: POST /rest/api/3/issue/bulkfetch {issueIdsOrKeys: [≤100], fields} → {issues, issueErrors}.
   * Unlike /search/jql, which has no read-after-write consistency (Atlassian, "Search After Write with Search
   * And Reconcile", developer.atlassian.com/cloud/jira/platform/search-and-reconcile), it reads the database,
   * so a refresh right after writes sees them. Shape per the Cloud REST v3 OpenAPI ("Bulk fetch issues":
   * BulkFetchIssueRequestBean {issueIdsOrKeys, fields, expand, fieldsByKeys, properties}; BulkIssueResults
   * {issues, issueErrors: [{id, errorMessage}]}): up to 100 issues per call, ascending id order; issues not
   * found or not visible are in neither list, issueErrors holds only retriable failures (by issue id).
   */
  async bulkFetch(keys: string[], fields: string[]): Promise<{ issues: JiraIssue[]; issueErrors: Array<{ id?: string; errorMessage?: string }> }> {
    const answer = await this.client.api<{ issues?: JiraIssue[]; issueErrors?: Array<{ id?: string; errorMessage?: string }> }>('POST', '/issue/bulkfetch', {
      body: { issueIdsOrKeys: keys, fields },
      idempotent: true,
    });
    return { issues: answer.issues ?? [], issueErrors: answer.issueErrors ?? [] };
  }

  // ---- workflow, links, comments -------------------------------------------------------------

  async transitions(key: string): Promise<JiraTransition[]> {
    const answer = await this.client.api<{ transitions: JiraTransition[] }>('GET', `/issue/${encodeURIComponent(key)}/transitions`, {
      query: { expand: 'transitions.fields' },
      subject: key,
      issueKeys: [key],
    });
    return answer.transitions;
  }

  /** POST …/transitions; `fields` fills the transition screen's required fields (e.g. resolution). */
  async transition(key: string, transitionId: string, fields: Record<string, unknown> = {}): Promise<void> {
    const body = Object.keys(fields).length > 0 ? { transition: { id: transitionId }, fields } : { transition: { id: transitionId } };
    await this.client.api('POST', `/issue/${encodeURIComponent(key)}/transitions`, { body, subject: key, issueKeys: [key] });
  }

  /**
   * Creates "source ⟨outward⟩ target", e.g. source blocks target.
   * Jira's POST /issueLink puts the SOURCE in `inwardIssue` and the TARGET in `outwardIssue`: the names describe
   * how the other end sees the link, not the end's role. After {type: Blocks, inwardIssue: A-1, outwardIssue: A-2}
   * Jira shows "A-1 blocks A-2" and "A-2 is blocked by A-1"; GET A-1 lists the link with `outwardIssue: A-2`,
   * GET A-2 with `inwardIssue: A-1`. (Atlassian's "Jira issue linking model" guide; the same mapping is used by
   * pycontribs/jira create_issue_link and confirmed in several client bug reports against real Cloud and DC.)
   */
  async createLink(typeName: string, sourceKey: string, targetKey: string): Promise<void> {
    await this.client.api('POST', '/issueLink', {
      body: { type: { name: typeName }, inwardIssue: { key: sourceKey }, outwardIssue: { key: targetKey } },
      subject: `${sourceKey} → ${targetKey}`,
    });
  }

  /** GET /issueLinkType (read once per agent run). */
  async linkTypes(): Promise<JiraLinkType[]> {
    this.linkTypesCache ??= (await this.client.api<{ issueLinkTypes: JiraLinkType[] }>('GET', '/issueLinkType')).issueLinkTypes;
    return this.linkTypesCache;
  }

  async comments(key: string): Promise<Array<{ id: string; body: unknown }>> {
    const all: Array<{ id: string; body: unknown }> = [];
    let startAt = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.client.api<{ comments: Array<{ id: string; body: unknown }>; total: number }>('GET', `/issue/${encodeURIComponent(key)}/comment`, {
        query: { startAt, maxResults: PAGE_SIZE },
        subject: key,
        issueKeys: [key],
      });
      all.push(...answer.comments);
      startAt += answer.comments.length;
      if (answer.comments.length === 0 || startAt >= answer.total) break;
    }
    return all;
  }

  /** POST …/comment; the new comment's id (Jira answers 201 with the comment). */
  async addComment(key: string, text: string): Promise<string | null> {
    const answer = await this.client.api<{ id?: string } | undefined>('POST', `/issue/${encodeURIComponent(key)}/comment`, { body: { body: this.encodeText(text) }, subject: key, issueKeys: [key] });
    return answer?.id === undefined ? null : String(answer.id);
  }

  /** GET …/comment/{id}; null when Jira answers 404 (gone, or never there). */
  async findComment(key: string, id: string): Promise<{ id: string; body: unknown } | null> {
    try {
      return await this.client.api('GET', `/issue/${encodeURIComponent(key)}/comment/${encodeURIComponent(id)}`, { subject: key });
    } catch (error) {
      if (error instanceof JiraHttpError && error.status === 404) return null;
      throw error;
    }
  }

  /** DELETE …/comment/{id} (204). */
  async deleteComment(key: string, id: string): Promise<void> {
    await this.client.api('DELETE', `/issue/${encodeURIComponent(key)}/comment/${encodeURIComponent(id)}`, { subject: key });
  }

  /** DELETE /issueLink/{linkId} (204). */
  async deleteLink(id: string, subject: string): Promise<void> {
    await this.client.api('DELETE', `/issueLink/${encodeURIComponent(id)}`, { subject });
  }

  /** DELETE /issue/{key} (204); sub-tasks are never deleted with it (Jira then refuses with 400). */
  async deleteIssue(key: string): Promise<void> {
    await this.client.api('DELETE', `/issue/${encodeURIComponent(key)}`, { query: { deleteSubtasks: 'false' }, subject: key, issueKeys: [key] });
  }

  /** GET /mypermissions for one project permission (e.g. DELETE_ISSUES). */
  async hasPermission(projectKey: string, permission: string): Promise<boolean> {
    const answer = await this.client.api<{ permissions?: Record<string, { havePermission?: boolean }> }>('GET', '/mypermissions', {
      query: { projectKey, permissions: permission },
    });
    return answer.permissions?.[permission]?.havePermission === true;
  }

  // ---- agile ---------------------------------------------------------------------------------

  /** The project's boards: read once, then from the cache until forgetAgile (a sprint not found, a new settings version). */
  async boards(projectKey: string): Promise<JiraBoard[]> {
    let boards = this.boardsCache.get(projectKey);
    if (!boards) {
      boards = await this.agilePages<JiraBoard>('/board', { projectKeyOrId: projectKey });
      this.boardsCache.set(projectKey, boards);
    }
    return boards;
  }

  /** A board's sprints in `states`: active and future ones cached like boards; closed ones read each time. */
  async sprints(boardId: number, states: string): Promise<JiraSprint[]> {
    const cacheable = states === 'active,future';
    const cached = cacheable ? this.sprintsCache.get(String(boardId)) : undefined;
    if (cached) return cached;
    const sprints = await this.agilePages<JiraSprint>(`/board/${boardId}/sprint`, { state: states });
    if (cacheable) this.sprintsCache.set(String(boardId), sprints);
    return sprints;
  }

  /** Whether boards or sprints come from the cache now (a miss there is worth one more read). */
  get agileCached(): boolean {
    return this.boardsCache.size > 0 || this.sprintsCache.size > 0;
  }

  /** Forgets boards and sprints: the next lookup reads them again. */
  forgetAgile(): void {
    this.boardsCache.clear();
    this.sprintsCache.clear();
  }

  /** What a catalogue read learnt, kept for the commands: fields, link types, boards and open sprints. */
  remember(known: { fields?: JiraFieldMeta[]; linkTypes?: JiraLinkType[]; boards?: { project: string; boards: JiraBoard[] }; sprints?: Map<number, JiraSprint[]> }): void {
    if (known.fields) this.fieldsCache = known.fields;
    if (known.linkTypes) this.linkTypesCache = known.linkTypes;
    if (known.boards) this.boardsCache.set(known.boards.project, known.boards.boards);
    for (const [board, sprints] of known.sprints ?? []) this.sprintsCache.set(String(board), sprints);
  }

  async moveToSprint(sprintId: number, keys: string[]): Promise<void> {
    // Moving an issue into the sprint it is in changes nothing: safe to send again.
    await this.client.agile('POST', `/sprint/${sprintId}/issue`, { body: { issues: keys }, idempotent: true, subject: keys.join(', ') });
  }

  /** Out of any active or future sprint (SPEC 16.2, `sprint: null`); an issue in the backlog already changes nothing. */
  async moveToBacklog(keys: string[]): Promise<void> {
    await this.client.agile('POST', '/backlog/issue', { body: { issues: keys }, idempotent: true, subject: keys.join(', ') });
  }

  private async agilePages<T>(path: string, query: Record<string, string>): Promise<T[]> {
    const all: T[] = [];
    let startAt = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.client.agile<PageOfValues<T>>('GET', path, { query: { ...query, startAt, maxResults: PAGE_SIZE } });
      all.push(...answer.values);
      startAt += answer.values.length;
      if (answer.isLast !== false || answer.values.length === 0) break;
    }
    return all;
  }

  // ---- field metadata ------------------------------------------------------------------------

  async fieldsMeta(): Promise<JiraFieldMeta[]> {
    this.fieldsCache ??= await this.client.api<JiraFieldMeta[]>('GET', '/field');
    return this.fieldsCache;
  }

  /**
   * Forgets the field list (the hub's settings changed): the next lookup reads GET /field again, and a name
   * missing from it may make the list be read once more.
   */
  clearFieldCache(): void {
    this.fieldsCache = undefined;
    this.linkTypesCache = undefined;
    this.refetchedForMissing = false;
    this.forgetAgile();
  }

  /** The GET /field entry of a field id (undefined when Jira does not list it). */
  async fieldMeta(id: string): Promise<JiraFieldMeta | undefined> {
    return (await this.fieldsMeta()).find((f) => f.id === id);
  }

  /** Id of Jira Software's Epic Link field (Data Center: how an issue is put into an epic), null without it. */
  async epicLinkFieldId(): Promise<string | null> {
    return (await this.fieldsMeta()).find((f) => f.schema?.custom === EPIC_LINK_SCHEMA)?.id ?? null;
  }

  /** The issue types of a project (GET /project/{key}, read once per project and run). */
  async projectIssueTypes(projectKey: string): Promise<JiraIssueType[]> {
    return (await this.project(projectKey)).issueTypes;
  }

  /** A project's id and issue types (GET /project/{key}, read once per project and run). */
  async project(projectKey: string): Promise<{ id: string; issueTypes: JiraIssueType[] }> {
    let project = this.projectCache.get(projectKey);
    if (!project) {
      const answer = await this.client.api<{ id: string; issueTypes?: JiraIssueType[] }>('GET', `/project/${encodeURIComponent(projectKey)}`, { subject: projectKey });
      project = { id: answer.id, issueTypes: answer.issueTypes ?? [] };
      this.projectCache.set(projectKey, project);
    }
    return project;
  }

  /**
   * A name from settings `fields` (or a command's field param): customfield_N as is, a field id, else the
   * display name case-insensitively — several fields of that name (Jira allows it) give their ids as candidates.
   * A name missing from a list read earlier makes it be read once more (see fieldIdsFor).
   */
  async lookupField(name: string): Promise<FieldLookup> {
    if (/^customfield_\d+$/.test(name)) return { id: name };
    const find = (meta: JiraFieldMeta[]): FieldLookup => {
      const byId = meta.find((f) => f.id === name);
      if (byId) return { id: byId.id };
      const byName = meta.filter((f) => f.name.trim().toLowerCase() === name.trim().toLowerCase());
      if (byName.length > 1) return { ambiguous: byName.map((f) => f.id) };
      return byName[0] ? { id: byName[0].id } : null;
    };
    const cachedBefore = this.fieldsCache !== undefined;
    const found = find(await this.fieldsInProject());
    if (found || !cachedBefore || this.refetchedForMissing) return found;
    this.refetchedForMissing = true;
    this.fieldsCache = undefined;
    return find(await this.fieldsInProject());
  }

  /** The project the agent works in (JIRA_PROJECT): names of fields are looked up as seen from it. */
  projectKey: string | undefined;

  /**
   * GET /field as seen from the agent's project: a team-managed project's own field (Cloud's `scope`
   * {type: PROJECT, project}) of another project is left out, so a name that only such fields share
   * with ours is not ambiguous.
   */
  private async fieldsInProject(): Promise<JiraFieldMeta[]> {
    const meta = await this.fieldsMeta();
    const scoped = meta.some((f) => f.scope?.type === 'PROJECT');
    if (!scoped || !this.projectKey) return meta;
    const ours = { key: this.projectKey, id: (await this.project(this.projectKey)).id };
    return meta.filter((f) => f.scope?.type !== 'PROJECT' || f.scope.project?.id === ours.id || f.scope.project?.key === ours.key);
  }

  /** Id of the sprint custom field (customfield_10020 on most Cloud sites), null if Jira Software is absent. */
  async sprintFieldId(): Promise<string | null> {
    const meta = await this.fieldsMeta();
    return meta.find((f) => f.schema?.custom === SPRINT_SCHEMA)?.id ?? null;
  }

  /** Field id for a name from settings `fields`: customfield_NNNNN as is, else the field's display name (case-insensitive). */
  async fieldIdFor(name: string): Promise<string | null> {
    return (await this.fieldIdsFor([name])).get(name) ?? null;
  }

  /**
   * Field ids for several names (null = not in Jira). A name missing from a field list read earlier makes the
   * list be read once more, so a field created in Jira after the agent started is found without a restart; this
   * re-read happens at most once until clearFieldCache (a new settings version), not on every refresh.
   */
  async fieldIdsFor(names: string[]): Promise<Map<string, string | null>> {
    const cachedBefore = this.fieldsCache !== undefined;
    let ids = lookupFields(names, await this.fieldsInProject());
    if (cachedBefore && !this.refetchedForMissing && [...ids.values()].includes(null)) {
      this.refetchedForMissing = true;
      this.fieldsCache = undefined;
      ids = lookupFields(names, await this.fieldsInProject());
    }
    return ids;
  }
}

/** Ids by name (see lookupField); a name several fields share gives null here: it has no one id. */
function lookupFields(names: string[], meta: JiraFieldMeta[]): Map<string, string | null> {
  const ids = new Map<string, string | null>();
  for (const name of names) {
    if (/^customfield_\d+$/.test(name)) ids.set(name, name);
    else {
      const byName = meta.filter((f) => f.name.trim().toLowerCase() === name.trim().toLowerCase());
      ids.set(name, meta.find((f) => f.id === name)?.id ?? (byName.length === 1 ? byName[0]!.id : null));
    }
  }
  return ids;
}
