import { SeedEntryError, SimError, notFoundIssue } from './errors.js';
import { holds, JqlError, parseJql, parseJqlDate, textMatches, type JqlClause, type JqlQuery } from './jql.js';
import { MAX_TEXT, sizeProblems, tooLong } from './limits.js';
import { workflowOf } from './workflow.js';
import type { SimSeed, SimSeedIssue, SimSprint, SimTransition, StoredComment, StoredIssue, StoredLink, SprintState } from './types.js';

/** A decoded change to an issue (flavor-neutral: plain text, accountIds): the editable fields of a seed issue. */
export type IssuePatch = Partial<Omit<SimSeedIssue, 'project' | 'status' | 'createdAtMs'>> & {
  /** DC: `parent` came through the Epic Link field (an epic), not the sub-task parent. */
  epicLink?: boolean;
};

/**
 * State and rules of the simulated Jira. Link direction follows real Jira:
 * POST /issueLink {type: Blocks, inwardIssue: A, outwardIssue: B} stores A as the source and B as the target,
 * and means "A blocks B" (A shows the outward description "blocks B", B shows "is blocked by A").
 */
export class SimStore {
  readonly issues = new Map<string, StoredIssue>();
  readonly links: StoredLink[] = [];
  readonly comments: StoredComment[] = [];
  private nextIssueId = 10001;
  private nextLinkId = 20001;
  private nextCommentId = 30001;
  private readonly counters = new Map<string, number>();
  /** Earlier states of each issue, oldest first: `state` was current until `untilMs` (for stale search). */
  private readonly history = new Map<string, Array<{ untilMs: number; state: StoredIssue }>>();
  /** Indexes for projects of many issues: issues by id, links by either end. */
  private readonly byId = new Map<string, StoredIssue>();
  private readonly linksByKey = new Map<string, StoredLink[]>();
  /** Bumped by every change through the store; a search's next page reuses its result while it holds. */
  private version = 0;
  private lastSearch: { query: string; version: number; found: StoredIssue[] } | undefined;
  /** Seed links are the starting state: no history, no `updated` change. */
  private seeding = true;

  constructor(readonly seed: SimSeed) {
    for (const [i, issue] of seed.issues.entries()) this.seedEntry(`issues[${i}]`, () => {
      const created = this.createIssue(issue.project ?? seed.projects[0]!.key, {
        summary: issue.summary,
        issueType: issue.issueType ?? 'Task',
        description: issue.description ?? null,
        assignee: issue.assignee ?? null,
        priority: issue.priority === undefined ? seed.defaultPriority : issue.priority,
        duedate: issue.duedate ?? null,
        labels: issue.labels ?? [],
        parent: issue.parent ?? null,
        sprintIds: issue.sprintIds ?? [],
        custom: issue.custom ?? {},
      }, seed.users[0]!.accountId);
      if (issue.status) created.status = issue.status;
      if (issue.createdAtMs !== undefined) created.createdAtMs = created.updatedAtMs = issue.createdAtMs;
    });
    for (const [i, link] of seed.links.entries()) this.seedEntry(`links[${i}]`, () => this.createLink(link.type, link.source, link.target));
    this.seeding = false;
  }

  /** Creates one entry of the seed; Jira's refusal of it names the entry (SeedEntryError). */
  private seedEntry(entry: string, create: () => void): void {
    try {
      create();
    } catch (err) {
      throw err instanceof SimError ? new SeedEntryError(entry, err) : err;
    }
  }

  // ---- issues -------------------------------------------------------------------------------

  findIssue(key: string): StoredIssue | undefined {
    return this.issues.get(key.toUpperCase());
  }

  findIssueById(id: string): StoredIssue | undefined {
    return this.byId.get(id);
  }

  requireIssue(key: string): StoredIssue {
    const issue = this.findIssue(key);
    if (!issue) throw notFoundIssue();
    return issue;
  }

  createIssue(projectKey: string | undefined, patch: IssuePatch, reporter: string): StoredIssue {
    const errors: Record<string, string> = {};
    const project = this.seed.projects.find((p) => p.key === projectKey || p.id === projectKey);
    if (!project) errors.project = 'valid project is required';
    if (!patch.issueType || !this.seed.issueTypes.includes(patch.issueType)) errors.issuetype = 'valid issue type is required';
    if (!patch.summary?.trim()) errors.summary = 'You must specify a summary of the issue.';
    else if (patch.summary.length > 255) errors.summary = 'Summary must be less than 255 characters.';
    if (Object.keys(errors).length > 0) throw new SimError(400, [], errors);
    this.validatePatch(patch, project!.key);
    const number = (this.counters.get(project!.key) ?? 0) + 1;
    this.counters.set(project!.key, number);
    const now = Date.now();
    const issue: StoredIssue = {
      id: String(this.nextIssueId++),
      key: `${project!.key}-${number}`,
      projectKey: project!.key,
      summary: patch.summary!,
      description: patch.description ?? null,
      issueType: patch.issueType!,
      status: workflowOf(this.seed, patch.issueType!).initialStatus,
      assignee: patch.assignee ?? null,
      reporter,
      priority: patch.priority === undefined ? this.seed.defaultPriority : patch.priority,
      duedate: patch.duedate ?? null,
      labels: patch.labels ?? [],
      parent: patch.parent ?? null,
      sprintIds: patch.sprintIds ?? [],
      custom: patch.custom ?? {},
      createdAtMs: now,
      updatedAtMs: now,
    };
    this.issues.set(issue.key, issue);
    this.byId.set(issue.id, issue);
    this.version++;
    return issue;
  }

  updateIssue(key: string, patch: IssuePatch): StoredIssue {
    const issue = this.requireIssue(key);
    if (patch.summary !== undefined && !patch.summary.trim()) throw new SimError(400, [], { summary: 'You must specify a summary of the issue.' });
    if (patch.summary !== undefined && patch.summary.length > 255) throw new SimError(400, [], { summary: 'Summary must be less than 255 characters.' });
    this.validatePatch(patch, issue.projectKey);
    this.remember(issue);
    const { custom, ...plain } = patch;
    Object.assign(issue, plain);
    if (custom) issue.custom = { ...issue.custom, ...custom };
    this.touch(issue);
    return issue;
  }

  private validatePatch(patch: IssuePatch, projectKey?: string): void {
    const errors: Record<string, string> = {};
    const project = this.seed.projects.find((p) => p.key === projectKey || p.id === projectKey);
    const priorities = project?.priorities ?? this.seed.priorities;
    if (patch.priority && !priorities.includes(patch.priority)) errors.priority = `Specify a valid 'id' or 'name' for Priority`;
    if (patch.assignee && this.seed.assignable && !this.seed.assignable.includes(patch.assignee)) {
      const user = this.seed.users.find((u) => u.accountId === patch.assignee);
      errors.assignee = `User '${user?.displayName ?? patch.assignee}' cannot be assigned issues.`;
    }
    Object.assign(errors, sizeProblems(patch, this.seed));
    if (patch.issueType && !this.seed.issueTypes.includes(patch.issueType)) errors.issuetype = 'Specify a valid issue type';
    if (patch.duedate && !/^\d{4}-\d{2}-\d{2}$/.test(patch.duedate)) errors.duedate = `Error parsing date string: ${patch.duedate}`;
    if (patch.labels?.some((label) => /\s/.test(label) || label === '')) errors.labels = 'The label must not contain spaces.';
    if (patch.parent && !this.findIssue(patch.parent)) errors.parent = `Could not find issue by id or key.`;
    if (Object.keys(errors).length > 0) throw new SimError(400, [], errors);
  }

  /** Keeps the issue's state before a change, so a stale search can serve it (bounded per issue). */
  private remember(issue: StoredIssue): void {
    const past = this.history.get(issue.key) ?? [];
    past.push({ untilMs: Date.now(), state: structuredClone(issue) });
    if (past.length > 50) past.shift();
    this.history.set(issue.key, past);
  }

  /** The issue as it was at `atMs` (undefined if it did not exist yet). */
  issueAsOf(issue: StoredIssue, atMs: number): StoredIssue | undefined {
    if (issue.createdAtMs > atMs) return undefined;
    return this.history.get(issue.key)?.find((h) => h.untilMs > atMs)?.state ?? issue;
  }

  private touch(issue: StoredIssue): void {
    this.version++;
    issue.updatedAtMs = Math.max(Date.now(), issue.updatedAtMs + 1);
  }

  listIssues(): StoredIssue[] {
    return [...this.issues.values()];
  }

  // ---- workflow ------------------------------------------------------------------------------

  transitionsFor(key: string): SimTransition[] {
    const issue = this.requireIssue(key);
    return workflowOf(this.seed, issue.issueType).transitions.filter((t) => (t.from === '*' ? t.to !== issue.status : t.from.includes(issue.status)));
  }

  /** Applies a transition; `fields` are the POST's `fields` (a required `resolution` as {name} or {id}). */
  transition(key: string, transitionId: string | undefined, fields: Record<string, unknown> = {}): void {
    const issue = this.requireIssue(key);
    const transition = this.transitionsFor(key).find((t) => t.id === String(transitionId));
    if (!transition) throw new SimError(400, [`Transition id '${transitionId}' is not valid for this issue.`]);
    const resolutions = this.resolutions();
    let resolution: string | null = null;
    if (fields.resolution !== undefined) {
      const ref = (fields.resolution ?? {}) as { name?: unknown; id?: unknown };
      resolution = typeof ref.name === 'string' ? ref.name : (resolutions[Number(ref.id) - 1] ?? null);
      if (!resolution || !resolutions.includes(resolution)) throw new SimError(400, [], { resolution: `Resolution '${String(ref.name ?? ref.id)}' is not valid.` });
    }
    for (const required of transition.requiredFields ?? []) {
      if (required === 'resolution' && resolution === null) throw new SimError(400, [], { resolution: 'Resolution is required.' });
    }
    const validator = transition.validator;
    if (validator) {
      const value = validator.field === 'labels' ? (issue.labels.length > 0 ? issue.labels : null) : issue[validator.field];
      if (value === null) throw new SimError(400, [validator.message]);
    }
    this.remember(issue);
    issue.custom = { ...issue.custom, resolution: transition.requiredFields?.includes('resolution') ? resolution : null };
    issue.status = transition.to;
    this.touch(issue);
  }

  resolutions(): string[] {
    return this.seed.resolutions ?? ['Done', "Won't Do"];
  }

  // ---- links ---------------------------------------------------------------------------------

  /** `source` is POST /issueLink's `inwardIssue`, `target` its `outwardIssue` (see the class comment). */
  createLink(typeName: string, sourceKey: string, targetKey: string): StoredLink {
    const type = this.seed.linkTypes.find((t) => t.name.toLowerCase() === typeName.toLowerCase());
    if (!type) throw new SimError(404, [`No issue link type with name '${typeName}' found.`]);
    const source = this.requireIssue(sourceKey);
    const target = this.requireIssue(targetKey);
    const existing = this.linksOf(source.key).find((l) => l.typeName === type.name && l.sourceKey === source.key && l.targetKey === target.key);
    if (existing) return existing;
    const link: StoredLink = { id: String(this.nextLinkId++), typeName: type.name, sourceKey: source.key, targetKey: target.key };
    if (!this.seeding) {
      this.remember(source);
      this.remember(target);
    }
    this.links.push(link);
    for (const key of new Set([source.key, target.key])) this.linksByKey.set(key, [...(this.linksByKey.get(key) ?? []), link]);
    if (!this.seeding) {
      this.touch(source);
      this.touch(target);
    }
    return link;
  }

  linksOf(key: string): StoredLink[] {
    return this.linksByKey.get(key) ?? [];
  }

  /** DELETE /issueLink/{id}: both ends lose it (and get a new `updated`). */
  deleteLink(id: string): void {
    const index = this.links.findIndex((l) => l.id === id);
    if (index < 0) throw new SimError(404, ['No issue link with id \'' + id + '\' exists.']);
    const [link] = this.links.splice(index, 1);
    for (const key of new Set([link!.sourceKey, link!.targetKey])) {
      const issue = this.findIssue(key);
      if (issue) this.remember(issue);
      this.linksByKey.set(key, (this.linksByKey.get(key) ?? []).filter((l) => l.id !== id));
      if (issue) this.touch(issue);
    }
  }

  // ---- comments ------------------------------------------------------------------------------

  commentsOf(key: string): StoredComment[] {
    const issue = this.requireIssue(key);
    return this.comments.filter((c) => c.issueKey === issue.key);
  }

  addComment(key: string, body: string, author: string): StoredComment {
    const issue = this.requireIssue(key);
    if (!body.trim()) throw new SimError(400, [], { comment: 'Comment body can not be empty!' });
    if (body.length > MAX_TEXT) throw new SimError(400, [], { comment: tooLong(MAX_TEXT) });
    const comment: StoredComment = { id: String(this.nextCommentId++), issueKey: issue.key, body, author, createdAtMs: Date.now() };
    this.remember(issue);
    this.comments.push(comment);
    this.touch(issue);
    return comment;
  }

  /** DELETE …/comment/{id}: 404 when the issue has no such comment. */
  deleteComment(key: string, id: string): void {
    const issue = this.requireIssue(key);
    const index = this.comments.findIndex((c) => c.issueKey === issue.key && c.id === id);
    if (index < 0) throw new SimError(404, [`Can not find a comment for the id: ${id}.`]);
    this.remember(issue);
    this.comments.splice(index, 1);
    this.touch(issue);
  }

  /**
   * DELETE /issue/{key}: with its links and comments. An issue with sub-tasks is refused unless
   * `deleteSubtasks` (then they go too), as Jira does.
   */
  deleteIssue(key: string, deleteSubtasks: boolean): void {
    const issue = this.requireIssue(key);
    const subtasks = this.listIssues().filter((i) => i.parent === issue.key && i.issueType === 'Sub-task');
    if (subtasks.length > 0 && !deleteSubtasks) throw new SimError(400, [`The issue has subtasks: set deleteSubtasks to true to delete them with it.`]);
    for (const sub of subtasks) this.deleteIssue(sub.key, true);
    for (const link of [...this.linksOf(issue.key)]) this.deleteLink(link.id);
    for (let i = this.comments.length - 1; i >= 0; i--) if (this.comments[i]!.issueKey === issue.key) this.comments.splice(i, 1);
    this.issues.delete(issue.key);
    this.byId.delete(issue.id);
    this.history.delete(issue.key);
    this.version++;
  }

  // ---- agile ---------------------------------------------------------------------------------

  boardsOf(projectKeyOrId: string | undefined) {
    const project = this.seed.projects.find((p) => p.key === projectKeyOrId || p.id === projectKeyOrId);
    if (projectKeyOrId !== undefined && !project) throw new SimError(400, [`No project could be found with key or id '${projectKeyOrId}'.`]);
    return this.seed.boards.filter((b) => !project || b.projectKey === project.key);
  }

  sprintsOf(boardId: number, states: SprintState[] | undefined): SimSprint[] {
    const board = this.seed.boards.find((b) => b.id === boardId);
    if (!board) throw new SimError(404, [`Board does not exist or you do not have permission to see it.`]);
    if (board.type === 'kanban') throw new SimError(400, ['The board does not support sprints']);
    return this.seed.sprints.filter((s) => s.boardId === boardId && (!states || states.includes(s.state)));
  }

  findSprint(id: number): SimSprint | undefined {
    return this.seed.sprints.find((s) => s.id === id);
  }

  /**
   * The sprints an issue is in, as Jira Software shows them: a sub-task is in its parent's (it follows the
   * parent into a sprint and out of it, and cannot be moved on its own).
   */
  sprintIdsOf(issue: StoredIssue): number[] {
    const parent = issue.issueType === 'Sub-task' && issue.parent ? this.findIssue(issue.parent) : undefined;
    return parent ? parent.sprintIds : issue.sprintIds;
  }

  /** Moves issues to a sprint: removes them from other open sprints, keeps closed ones (as Jira does). */
  /** POST /rest/agile/1.0/backlog/issue: out of every active and future sprint (closed ones stay in the history). */
  moveToBacklog(keys: string[]): void {
    const issues = keys.map((key) => this.requireIssue(key));
    const subtask = issues.find((issue) => issue.issueType === 'Sub-task');
    if (subtask) throw new SimError(400, [`Issue ${subtask.key} is a sub-task; sub-tasks cannot be moved to the backlog on their own, only with their parent.`]);
    for (const issue of issues) {
      this.remember(issue);
      issue.sprintIds = issue.sprintIds.filter((id) => this.findSprint(id)?.state === 'closed');
      this.touch(issue);
    }
  }

  moveToSprint(sprintId: number, keys: string[]): void {
    const sprint = this.findSprint(sprintId);
    if (!sprint) throw new SimError(404, ['Sprint does not exist or you do not have permission to see it.']);
    if (sprint.state === 'closed') throw new SimError(400, ['Cannot move issues to a closed sprint.']);
    const issues = keys.map((key) => this.requireIssue(key));
    const subtask = issues.find((issue) => issue.issueType === 'Sub-task');
    // Jira Software: a sub-task follows its parent into a sprint and cannot be moved on its own.
    if (subtask) throw new SimError(400, [`Issue ${subtask.key} is a sub-task; sub-tasks cannot be moved to a sprint on their own, only with their parent.`]);
    for (const issue of issues) {
      this.remember(issue);
      const closed = issue.sprintIds.filter((id) => this.findSprint(id)?.state === 'closed' && id !== sprintId);
      issue.sprintIds = [...closed, sprintId];
      this.touch(issue);
    }
  }

  // ---- search --------------------------------------------------------------------------------

  /**
   * Issues matching `jql`; those created less than `lagMs` ago are not yet indexed (eventual consistency).
   * `stale`: the index also lags behind changes — every issue is matched and returned as it was `lagMs` ago
   * (status, fields, sprints; links are current), like Cloud's /search/jql without read-after-write consistency.
   * `strictKeys` (DC's default validateQuery=strict): a key clause naming an issue that does not exist is a 400.
   */
  search(jql: string, lagMs: number, strictKeys = false, stale = false): StoredIssue[] {
    const found = this.evaluate(jql, lagMs, strictKeys, stale);
    if (lagMs === 0) this.lastSearch = { query: jql, version: this.version, found };
    return found;
  }

  /**
   * The next page of the last search: its result again while nothing changed through the store since
   * (a project of many issues is not searched again for each page); otherwise a new search.
   */
  searchAgain(jql: string, lagMs: number, strictKeys = false, stale = false): StoredIssue[] {
    const last = this.lastSearch;
    if (lagMs === 0 && last && last.query === jql && last.version === this.version) return last.found;
    return this.search(jql, lagMs, strictKeys, stale);
  }

  private evaluate(jql: string, lagMs: number, strictKeys: boolean, stale: boolean): StoredIssue[] {
    let query: JqlQuery;
    try {
      query = parseJql(jql);
    } catch (error) {
      if (error instanceof JqlError) throw new SimError(400, [error.message]);
      throw error;
    }
    if (strictKeys) {
      for (const clause of query.clauses) {
        if (clause.field !== 'key') continue;
        const keys = clause.kind === 'in' ? clause.values : [clause.value];
        const unknown = keys.find((key) => !this.findIssue(key));
        if (unknown) throw new SimError(400, [`An issue with key '${unknown}' does not exist for field 'key'.`]);
      }
    }
    const now = Date.now();
    const indexed = this.listIssues().flatMap((issue) => {
      if (now - issue.createdAtMs < lagMs) return [];
      const seen = stale && lagMs > 0 ? this.issueAsOf(issue, now - lagMs) : issue;
      return seen ? [seen] : [];
    });
    const found = indexed.filter((issue) => holds(query.where, (c) => this.matches(issue, c, now)));
    const order = query.orderBy.length > 0 ? query.orderBy : [{ field: 'key', desc: true }];
    return found.sort((a, b) => {
      for (const { field, desc } of order) {
        const diff = compareBy(field, a, b);
        if (diff !== 0) return desc ? -diff : diff;
      }
      return 0;
    });
  }

  private matches(issue: StoredIssue, clause: JqlClause, now: number): boolean {
    if (clause.kind === 'in') {
      const values = this.fieldValues(issue, clause.field);
      const wanted = clause.values.map((v) => v.toLowerCase());
      const hit = values.some((v) => wanted.includes(v.toLowerCase()));
      return clause.negated ? !hit : hit;
    }
    if (clause.field === 'created' || clause.field === 'updated') {
      const actual = clause.field === 'created' ? issue.createdAtMs : issue.updatedAtMs;
      const bound = parseJqlDate(clause.value, now);
      switch (clause.op) {
        case '>=': return actual >= bound;
        case '>': return actual > bound;
        case '<=': return actual <= bound;
        case '<': return actual < bound;
        case '=': return actual === bound;
        default: throw new SimError(400, [`Error in the JQL Query: operator '${clause.op}' is not supported for '${clause.field}'.`]);
      }
    }
    const values = this.fieldValues(issue, clause.field);
    switch (clause.op) {
      case '~':
        return values.some((v) => textMatches(v, clause.value));
      case '=':
        return values.some((v) => v.toLowerCase() === clause.value.toLowerCase());
      case '!=':
        return !values.some((v) => v.toLowerCase() === clause.value.toLowerCase());
      default:
        throw new SimError(400, [`Error in the JQL Query: operator '${clause.op}' is not supported for '${clause.field}'.`]);
    }
  }

  private fieldValues(issue: StoredIssue, field: string): string[] {
    switch (field) {
      case 'project': return [issue.projectKey, this.seed.projects.find((p) => p.key === issue.projectKey)?.id ?? ''];
      case 'key': return [issue.key, issue.id];
      case 'summary': return [issue.summary];
      case 'text': return [issue.summary, issue.description ?? ''];
      case 'status': return [issue.status];
      case 'issuetype': return [issue.issueType];
      case 'labels': return issue.labels;
      case 'assignee': {
        const user = this.seed.users.find((u) => u.accountId === issue.assignee);
        return user ? [user.accountId, user.name] : [];
      }
      case 'sprint':
        return this.sprintIdsOf(issue).flatMap((id) => [String(id), this.findSprint(id)?.name ?? '']);
      default:
        throw new SimError(400, [`Field '${field}' does not exist or you do not have permission to view it.`]);
    }
  }
}

function compareBy(field: string, a: StoredIssue, b: StoredIssue): number {
  switch (field) {
    case 'key':
      return a.projectKey === b.projectKey ? keyNumber(a.key) - keyNumber(b.key) : a.projectKey.localeCompare(b.projectKey);
    case 'created': return a.createdAtMs - b.createdAtMs;
    case 'updated': return a.updatedAtMs - b.updatedAtMs;
    case 'summary': return a.summary.localeCompare(b.summary);
    case 'status': return a.status.localeCompare(b.status);
    default: throw new SimError(400, [`Error in the JQL Query: field '${field}' does not support sorting.`]);
  }
}

function keyNumber(key: string): number {
  return Number(key.slice(key.lastIndexOf('-') + 1));
}
