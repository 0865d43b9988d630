/** Types of the in-memory Jira simulator (seed data and stored state). */

export type Flavor = 'cloud' | 'dc';

export interface SimUser {
  accountId: string;
  name: string;
  displayName: string;
  emailAddress: string;
}

export interface SimProject {
  id: string;
  key: string;
  name: string;
  /** The project's priority scheme (names); default every priority of the seed. */
  priorities?: string[];
}

/** A workflow of some issue types: its statuses, the status of a new issue, its transitions. */
export interface SimWorkflow {
  statuses: string[];
  initialStatus: string;
  transitions: SimTransition[];
}

/** The screens of an issue type (field ids). Absent lists: every field of the flavor (see screens.ts). */
export interface SimScreens {
  create?: string[];
  edit?: string[];
  /** required at create, beyond summary, issue type and project */
  required?: string[];
}

export interface SimTransition {
  id: string;
  name: string;
  /** Statuses the transition is offered from; '*' = from any other status (a global transition). */
  from: string[] | '*';
  to: string;
  /** Fields the transition's screen requires (only `resolution` is modelled): a 400 unless the POST gives them. */
  requiredFields?: string[];
  /**
   * A validator: the issue must have this field set (`assignee`, `duedate`, `labels`) before the transition,
   * else a 400 with `message` in errorMessages (a workflow's "Field Required" validator).
   */
  validator?: { field: 'assignee' | 'duedate' | 'labels'; message: string };
}

export interface SimLinkType {
  id: string;
  name: string;
  inward: string;
  outward: string;
}

export interface SimBoard {
  id: number;
  name: string;
  /** `simple`: a team-managed (next-gen) Cloud board; with the sprints feature it has sprints like scrum. */
  type: 'scrum' | 'kanban' | 'simple';
  projectKey: string;
}

export type SprintState = 'active' | 'future' | 'closed';

export interface SimSprint {
  id: number;
  name: string;
  state: SprintState;
  boardId: number;
  goal?: string;
}

export interface SimCustomField {
  id: string;
  name: string;
  /** Jira's schema.custom, e.g. 'com.pyxis.greenhopper.jira:gh-sprint'. */
  custom: string;
  /** Jira's schema.type: 'number', 'string', 'option', 'array', 'user', 'date', … */
  type: string;
  /** schema.items of an array field, e.g. 'option' for a multi select. */
  items?: string;
  /** Allowed option values of a select / multi select / radio / checkbox field. */
  options?: string[];
  /** Cloud: a team-managed project's own field (GET /field shows `scope`); such fields may share a name. */
  scope?: { type: 'PROJECT'; project: { id: string } };
}

/** A system field of GET /field (as Jira names and describes it: "Due date", schema.system "duedate"). */
export interface SimSystemField {
  id: string;
  name: string;
  schema: { type: string; system: string; items?: string };
}

export interface SimSeedIssue {
  project?: string;
  summary: string;
  issueType?: string;
  status?: string;
  description?: string | null;
  assignee?: string | null;
  priority?: string | null;
  duedate?: string | null;
  labels?: string[];
  parent?: string | null;
  sprintIds?: number[];
  custom?: Record<string, unknown>;
  /** Milliseconds since epoch; default: seed time. */
  createdAtMs?: number;
}

export interface SimSeedLink {
  /** The outward side: "source <outward description> target", e.g. source blocks target. */
  source: string;
  target: string;
  type: string;
}

export interface SimSeed {
  projects: SimProject[];
  issueTypes: string[];
  statuses: string[];
  /** Status of a new issue. */
  initialStatus: string;
  transitions: SimTransition[];
  linkTypes: SimLinkType[];
  boards: SimBoard[];
  sprints: SimSprint[];
  users: SimUser[];
  priorities: string[];
  defaultPriority: string;
  customFields: SimCustomField[];
  /** Resolutions (names) offered where a transition requires `resolution`; default Done, Won't Do. */
  resolutions?: string[];
  /** Permission keys of GET /mypermissions the user lacks in every project (default: none lacking). */
  deniedPermissions?: string[];
  /** Components of the projects (names), for the `components` system field; default none. */
  components?: string[];
  /** Versions of the projects (names), for `fixVersions` and `versions`; default none. */
  versions?: string[];
  /** Data Center: the Epic Link custom field (schema.custom …gh-epic-link) carries an issue's epic; Cloud uses `parent`. */
  epicLinkFieldId?: string;
  /** Id of the sprint custom field (an array of sprint objects on Cloud). */
  sprintFieldId: string;
  /** Data Center: the Epic Name custom field, required when an Epic is created (Cloud has none). */
  epicNameFieldId?: string;
  /** Workflows by issue type; a type without one uses `statuses`, `initialStatus` and `transitions`. */
  workflows?: Record<string, SimWorkflow>;
  /** Screens by issue type; a type without an entry has every field on both screens. */
  screens?: Record<string, SimScreens>;
  /** The accounts issues may be assigned to (accountIds); default every user. */
  assignable?: string[];
  /** Data Center before 8.4: the paged createmeta routes answer 404, only GET /issue/createmeta?expand=projects.issuetypes.fields is there. */
  legacyCreateMeta?: boolean;
  /** The account may read workflow schemes and workflows (Administer Jira); default false: those routes answer 403. */
  workflowsReadable?: boolean;
  issues: SimSeedIssue[];
  links: SimSeedLink[];
}

export interface StoredIssue {
  id: string;
  key: string;
  projectKey: string;
  summary: string;
  /** Plain text; Cloud renders it as ADF. */
  description: string | null;
  issueType: string;
  status: string;
  /** accountId of the assignee. */
  assignee: string | null;
  reporter: string | null;
  priority: string | null;
  duedate: string | null;
  labels: string[];
  parent: string | null;
  sprintIds: number[];
  custom: Record<string, unknown>;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface StoredLink {
  id: string;
  typeName: string;
  /** The outward side (the issue sent as `inwardIssue` in POST /issueLink, see store.ts). */
  sourceKey: string;
  targetKey: string;
}

export interface StoredComment {
  id: string;
  issueKey: string;
  /** Plain text; Cloud renders it as ADF. */
  body: string;
  author: string;
  createdAtMs: number;
}

/** One request as the simulator saw it, for tests. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
  status: number;
  /** The answer's JSON body (undefined when empty). */
  response?: unknown;
}
