/**
 * The wire contracts between the hub and its agent (SPEC 4, 6.2, 6.5, 9, 15.5): the JSON the hub's agent
 * routes send and receive, and the views the dashboard reads. This entry is types only, and the package
 * has no dependencies (its runtime code, the command catalogue, is apart at `./catalogue`), so the agent
 * installs without anything of the hub, and the hub, the agent and the dashboard cannot drift apart silently.
 */
import type { PacedType } from './catalogue.js';

/** The command types of SPEC 4. */
export type CommandType =
  | 'ensure_issue'
  | 'ensure_fields'
  | 'ensure_status'
  | 'ensure_link'
  | 'ensure_sprint'
  | 'ensure_comment'
  | 'refresh'
  /** SPEC 16.1: read the project's configuration; no params; result `{catalogue}` */
  | 'refresh_catalogue'
  | 'remove_link'
  | 'remove_comment'
  | 'delete_issue';

/**
 * What the agent says about itself when it claims (every field optional; SPEC 6.2 step 1). With
 * `jira_auth: "failed"` (SPEC 16.3) the claim hands out nothing: it only tells the hub that Jira refuses
 * the agent's credentials, and since when.
 */
export interface AgentInfo extends JiraAuthState {
  agent_version?: string;
  /** the settings version the agent works with */
  settings_version?: number;
  /** when the agent last called Jira, a date and time with offset */
  last_jira_call_at?: string | null;
}

/** Body of `POST /agent/claim` (every field optional). */
export interface ClaimRequest extends AgentInfo {
  /** long poll: hold the request up to this many seconds (0..60) while there is nothing to hand out */
  wait_seconds?: number;
}

/** A command as `POST /agent/claim` hands it out (SPEC 6.2). */
export interface DeliveredCommand {
  id: number;
  type: string;
  params: Record<string, unknown>;
  pause_seconds: number;
  batch_id: number;
  /** how many times this command has been handed out, this time included */
  deliveries: number;
}

/** Answer of `POST /agent/claim`: a command, or null when there is nothing to hand out now. */
export interface ClaimResponse {
  command: DeliveredCommand | null;
  settings_version: number;
}

/**
 * Body of `POST /agent/commands/{id}/result` (SPEC 6.5). `partial`: one part of a large refresh result
 * (SPEC 15.5), numbered by `part` from 1 in each delivery, followed by `done` or `failed`.
 */
export interface ReportBody {
  /**
   * `released` (SPEC 16.3): Jira refused the agent's credentials (401), the command did not fail — it goes
   * back to `queued` in its place and this delivery does not count toward the delivery limit.
   */
  status: 'done' | 'failed' | 'partial' | 'released';
  part?: number;
  result?: Record<string, unknown>;
  error?: string;
  jira_calls?: number;
  rate_limited?: number;
  /**
   * with `done`: what the command changed in Jira (SPEC 17.1); with `failed`: what it changed before it failed
   * (decision 1413: a status walk refused partway); none or empty when it changed nothing
   */
  changes?: Change[];
  /**
   * with `failed` only: the issues the command named that Jira answered 404 for — deleted, moved to another
   * project, or hidden from the agent — as a refresh's `missing_keys` (asked for, not returned). The hub
   * records them in the mirror as a refresh's (SPEC 7, decision 1448): plans and drift then see those issues gone.
   */
  missing_keys?: string[];
  /**
   * with `failed` of an ensure_status only: the transitions Jira offered the issue where the walk stopped for
   * want of one to the next step (decision 1485). The hub learns them into an observed catalogue, so the next
   * plan's route starts from what Jira showed instead of the guess that just failed.
   */
  transitions_seen?: SeenTransitions;
  /**
   * The merged call: with this field the same transaction also claims the next command (as
   * `POST /agent/claim` without waiting would) and the answer carries it in `next`.
   */
  claim?: AgentInfo;
}

/** What the agent saw of one issue's transitions (`GET /issue/{key}/transitions`) when a status walk stopped (decision 1485). */
export interface SeenTransitions {
  key: string;
  /** the issue type's name, as Jira answered it */
  issue_type: string;
  /** the status the issue was in */
  status: string;
  /** every transition Jira offered from there: `to` a status name; the transition screen's required fields without a default */
  transitions: { id: string; name: string; to: string; required_fields: string[] }[];
}

/** What `POST /agent/commands/{id}/result` adds to the command view when the report carried `claim`. */
export interface ReportAnswer {
  status: string;
  next?: ClaimResponse;
}

/** `GET /agent/settings`: the settings the agent works with (SPEC 9). */
export interface AgentSettings {
  version: number;
  /** seconds of pause per command type (the pause itself comes with each delivered command) */
  pacing: Partial<Record<CommandType, number>>;
  /** package link name → Jira link type */
  link_types: Record<string, string>;
  /** the extra Jira fields a refresh reads */
  fields: string[];
}

/** A command handed out more than once, in the agent's status. */
export interface RedeliveredCommand {
  id: number;
  type: string;
  claimed_at: string;
  deliveries: number;
}

/** `GET /agent/status` (SPEC 11.3): what people and the assistant (MCP) read about the agent. */
export interface AgentStatus {
  online: boolean;
  last_seen_at: string | null;
  agent_version: string | null;
  settings_version: number | null;
  /** the agent's settings version is older than the hub's */
  settings_stale: boolean;
  last_jira_call_at: string | null;
  current_command_id: number | null;
  rate_limited_24h: number;
  redelivered: RedeliveredCommand[];
  /** Jira's view of the agent's credentials as the agent last told it (SPEC 16.3) */
  jira_auth?: 'ok' | 'failed' | null;
  jira_auth_failed_since?: string | null;
  warning: string | null;
  /** the command the agent holds, and until when it waits out its pause before calling Jira (the dashboard's agent strip) */
  current_command?: AgentCurrentCommand | null;
  /** the next runnable command in queue order, and when it is expected to start (null: the agent is offline) */
  next_command?: AgentNextCommand | null;
}

/** A command as the agent strip shows it. */
export interface AgentWorkCommand {
  id: number;
  batch_id: number;
  seq: number;
  type: string;
  params: Record<string, unknown>;
}

export interface AgentCurrentCommand extends AgentWorkCommand {
  claimed_at: string;
  deliveries: number;
  pause_seconds: number | null;
  /** last_jira_call_at + pause_seconds when that is after the claim: the agent sleeps until then; null: no pause */
  pause_until: string | null;
}

export interface AgentNextCommand extends AgentWorkCommand {
  /** estimate: the current command's start (or now) plus this command's pacing pause; null while the agent is offline */
  starts_at: string | null;
}

/** A team's note on an issue (`GET /notes`, SPEC 11.3): what people and the assistant (MCP) read. */
export interface Note {
  key: string;
  fact_status: string | null;
  comment: string | null;
  source: string | null;
  updated_at: string | null;
}

/** The fields of an issue that a refresh reads and the mirror keeps (SPEC 4). */
export interface IssueFields {
  key: string;
  summary: string | null;
  issue_type: string | null;
  status: string | null;
  sprint: string | null;
  assignee: string | null;
  priority: string | null;
  duedate: string | null;
  labels: string[];
  created: string | null;
  updated: string | null;
}

/** A sprint's state as Jira's agile API names it, in lower case. */
export type SprintState = 'active' | 'future' | 'closed';
export const SPRINT_STATES: readonly SprintState[] = ['active', 'future', 'closed'];

/**
 * A sprint by its identity (decision 1430): Jira's sprint id, its name, and the board it belongs to (the
 * sprint field's `boardId` on Cloud, `rapidViewId` on Data Center; the agile API's `originBoardId`), null
 * when Jira did not say. Names repeat across boards («Спринт 2» of each team's board); the id does not.
 */
export interface SprintRef {
  id: number;
  name: string;
  board_id: number | null;
}

/** An issue of the hub's mirror (`GET /issues`): the refreshed fields, and when they were mirrored. */
export interface MirroredIssue extends IssueFields {
  /** the Jira id of `sprint`; null in the backlog, or when the refresh that wrote the issue did not say (an older agent) */
  sprint_id: number | null;
  /** the board of that sprint, when Jira said */
  sprint_board_id: number | null;
  /** the state Jira gives that sprint (decision 1434): `closed` means the issue is in no open sprint, in the backlog */
  sprint_state: SprintState | null;
  /** every other field the agent reported */
  fields: Record<string, unknown>;
  synced_at: string | null;
}

/** One mirrored issue with its links both ways and its note (`GET /issues/{key}`). */
export interface MirroredIssueDetail extends MirroredIssue {
  links_out: { target_key: string; link_type: string }[];
  links_in: { source_key: string; link_type: string }[];
  note: Note | null;
}

/**
 * An issue in a refresh result (SPEC 4). `sprint_id` and `sprint_board_id` say which sprint `sprint` is
 * (decision 1430); an older agent leaves them out, and the mirror then knows the sprint by its name only.
 * `sprint_state` is that sprint's state (decision 1434): `closed` when the issue's sprint field lists closed
 * sprints only (it is in the backlog, and `sprint` names the last of them).
 */
export interface RefreshIssue extends IssueFields {
  sprint_id?: number | null;
  sprint_board_id?: number | null;
  sprint_state?: SprintState | null;
  /** every other field the agent reads (the settings' `fields`) */
  fields?: Record<string, unknown>;
}

/** A link in a refresh result: "source ⟨outward⟩ target", e.g. source blocks target. */
export interface RefreshLink {
  source_key: string;
  target_key: string;
  link_type: string;
}

/** The result of a `refresh` (SPEC 4): the issues found, their links, and the asked-for keys Jira no longer has. */
export interface RefreshResult {
  issues: RefreshIssue[];
  links: RefreshLink[];
  /** the keys asked for (`params.keys`) that Jira no longer has; left out when none were asked for */
  missing_keys?: string[];
}

/** A link a planning package expects of Jira (SPEC 8): "source ⟨link_type⟩ target". */
export interface ExpectedLink {
  source: string;
  target: string;
  link_type: string;
}

/** The report of an import (`POST /import`, `jira-hub import`, the MCP's compare_package; SPEC 8). */
export interface ImportReport {
  notes: number;
  expected_links: ExpectedLink[];
  missing_keys: string[];
  missing_links: ExpectedLink[];
  reversed_links: ExpectedLink[];
  /** links.csv rows left out of the comparison: an end empty, or a temp key not yet resolved */
  skipped_links?: SkippedLink[];
}

/** A links.csv row the comparison could not use, and why (Russian). */
export interface SkippedLink {
  row: number;
  from: string;
  to: string;
  reason: string;
}

// ---------------------------------------------------------------------------------------------------
// Third wave (SPEC 16–17). Shared by the hub (storage, checks, lookups), the agent (reads Jira, reports)
// and the simulator. Field ids are Jira's (`summary`, `customfield_10011`); names are as Jira shows them.
// ---------------------------------------------------------------------------------------------------

/** One issue type of the project (SPEC 16.1). */
export interface CatalogueIssueType {
  id: string;
  name: string;
  subtask: boolean;
  /** Jira's hierarchy level: 1 epic, 0 standard, -1 sub-task (Cloud); DC: derived (epic by name) */
  hierarchy_level: number;
}

/** One field of the instance; `scope` is set for team-managed projects' own fields (Cloud). */
export interface CatalogueField {
  id: string;
  name: string;
  /** Jira's `schema`: `{type, items?, custom?, system?}` */
  schema?: { type?: string; items?: string; custom?: string; system?: string } | null;
  scope?: { type?: string; project?: { id?: string; key?: string } } | null;
}

/** A field on a create or edit screen of an issue type. */
export interface CatalogueScreenField {
  field_id: string;
  name: string;
  required: boolean;
  has_default: boolean;
  /** the allowed values when Jira lists them (option value, priority name, component name, version name) */
  allowed_values?: string[];
}

/** One status of an issue type's workflow. */
export interface CatalogueStatus {
  id: string;
  name: string;
  /** Jira's status category key: `new`, `indeterminate`, `done` */
  category: string;
}

/** One known transition edge. `from` null: a global transition (from any status). */
export interface CatalogueTransition {
  from: string | null;
  to: string;
  id: string;
  name: string;
  /** field ids the transition screen requires (resolution included when Jira says so) */
  required_fields: string[];
  /** when the edge was seen in `/transitions` (observed source only) */
  observed_at?: string;
}

/** Per issue type: its screens and workflow. Keyed by the issue type's id in `Catalogue.per_type`. */
export interface CatalogueTypeConfig {
  create: CatalogueScreenField[];
  /** null when no issue of the type existed to read `editmeta` from */
  edit: CatalogueScreenField[] | null;
  statuses: CatalogueStatus[];
  /** the initial status of a new issue of the type, when known */
  initial_status?: string | null;
  transitions: CatalogueTransition[];
}

export interface CatalogueLinkType {
  id: string;
  name: string;
  inward: string;
  outward: string;
}

export interface CatalogueBoard {
  id: number;
  name: string;
  type?: string;
}

export interface CatalogueSprint {
  id: number;
  name: string;
  state: 'active' | 'future' | 'closed';
  board_id: number;
}

export interface CatalogueUser {
  /** Cloud: accountId; DC: name */
  id: string;
  display_name: string;
}

/**
 * The catalogue (SPEC 16.1): the result of `refresh_catalogue` is `{catalogue: Catalogue}` (the hub stamps
 * `synced_at` when it stores it). Permission keys are Jira's (`CREATE_ISSUES`, `EDIT_ISSUES`,
 * `TRANSITION_ISSUES`, `LINK_ISSUES`, `ADD_COMMENTS`, `SCHEDULE_ISSUES`, `ASSIGN_ISSUES`,
 * `RESOLVE_ISSUES`, `DELETE_ISSUES`, `BROWSE_PROJECTS`, `DELETE_OWN_COMMENTS`, `DELETE_ALL_COMMENTS`).
 */
export interface Catalogue {
  project_key: string;
  flavor: 'cloud' | 'dc';
  agent_version?: string;
  synced_at?: string;
  issue_types: CatalogueIssueType[];
  fields: CatalogueField[];
  per_type: Record<string, CatalogueTypeConfig>;
  transitions_source: 'workflow' | 'observed';
  link_types: CatalogueLinkType[];
  boards: CatalogueBoard[];
  /** active and future sprints of the boards */
  sprints: CatalogueSprint[];
  priorities: string[];
  components: string[];
  versions: string[];
  permissions: Record<string, boolean>;
  assignable: CatalogueUser[];
  /** true when `assignable` was cut at 1,000 */
  assignable_truncated: boolean;
}

/** One finding of the checks (SPEC 16.2). `seq` is 1-based as the plan text shows it. */
export interface Finding {
  seq: number;
  param: string;
  code: string;
  /** Russian */
  detail: string;
  suggestion?: string;
}

export type CheckVerdict = 'will_change' | 'no_change' | 'will_fail' | 'unknown';

/**
 * One entry of a `done` (or `failed`, decision 1413) report's `changes` (SPEC 17.1). `what`: `field:<id>` (before/after: the values as
 * the mirror holds them), `status` (before/after names, `transitions` taken), `sprint` (before/after:
 * the sprint as a `SprintRef`, null = backlog; an older agent's record holds the names only), `link`
 * (after: `{source, target, link_type}`), `comment` (after: `{id}`), `issue` (after: `{key, summary}`), `link_removed`, `comment_removed`, `issue_deleted` (before: what was
 * there).
 */
export interface Change {
  key?: string;
  what: string;
  before?: unknown;
  after?: unknown;
  transitions?: string[];
}

/** Jira's view of the agent's credentials, told with every claim (SPEC 16.3). */
export interface JiraAuthState {
  jira_auth?: 'ok' | 'failed';
  /** since when Jira refuses the credentials, a date and time with offset */
  jira_auth_failed_since?: string | null;
}

/** One call of the AI assistant as `GET /audit` lists it (issue 22): an MCP tool call or a REST call with the assistant role. */
/**
 * One MCP tool call as its server tells the audit: POST /audit (the stdio server), or in process (the hub's
 * own MCP endpoint). `outcome`: ok, or the error code the tool answered.
 */
export interface AuditToolCall {
  tool: string;
  arguments?: unknown;
  outcome: string;
  detail?: string;
  batch_id?: number | null;
}

export interface AuditRecord {
  id: number;
  at: string;
  /**
   * `mcp`: a tool call the hub's own MCP endpoint (POST /mcp) served and recorded; `mcp_stdio`: a tool call
   * the `jira-hub mcp` process reported (POST /audit with the assistant's token) — the hub saw only the REST
   * calls it made (`rest`), not the call itself; `rest`: a REST call with the assistant's role
   */
  channel: 'mcp' | 'mcp_stdio' | 'rest';
  tool: string | null;
  route: string | null;
  /** the arguments as JSON, cut to a size */
  arguments: string;
  outcome: string;
  status: number | null;
  detail: string | null;
  batch_id: number | null;
}

// ---------------------------------------------------------------------------------------------------
// The views the dashboard and other clients read (SPEC 9, 11.3, 15.3, 17.1): the hub's answers
// `implement` these, the dashboard imports them (types only).
// ---------------------------------------------------------------------------------------------------

/** A command's status (SPEC 6.8). */
export type CommandStatus = 'queued' | 'claimed' | 'done' | 'failed' | 'cancelled' | 'skipped' | 'confirmed_by_state';

/** A batch's status, derived from its commands' (SPEC 6.8). */
export type BatchStatus = 'awaiting_approval' | 'queued' | 'running' | 'done' | 'cancelled';

/**
 * GET /agent/queued-statuses, one status the unfinished ensure_status commands walk to: the issue types
 * of the issues they walk (from the mirror, or the ensure_issue that defines a temp key), and whether
 * some walk an issue whose type the hub does not know. The agent's `--check` judges the status against
 * those types' workflows, and against every workflow for an issue of unknown type.
 */
export interface QueuedStatusTarget {
  status: string;
  issue_types: string[];
  unknown_type: boolean;
}

/** Who submitted a batch (SPEC 15.1): the client token, the AI assistant, or the hub itself (auto-refresh). */
export type BatchSource = 'client' | 'assistant' | 'hub';

/**
 * How one handout of a command ended (SPEC 15.3, 16.3): pending (out now), reported_done /
 * reported_failed, released (Jira refused the agent's credentials; not counted), lost (handed out
 * again), expired (the delivery limit), cancelled (force-cancelled while out), confirmed_by_state.
 */
export type DeliveryOutcome = 'pending' | 'reported_done' | 'reported_failed' | 'released' | 'lost' | 'expired' | 'cancelled' | 'confirmed_by_state';

/** One handout of a command to the agent (SPEC 15.3). */
export interface CommandDelivery {
  /** delivery number, 1, 2, … (released handouts counted too) */
  n: number;
  handed_out_at: string;
  agent_version: string | null;
  outcome: DeliveryOutcome;
  reported_at: string | null;
  jira_calls: number | null;
}

/** One change a command made in Jira, as the batch views show it (SPEC 17.1). */
export interface RecordedChange extends Change {
  command_id: number;
  /** the delivery (1..3) whose report carried it */
  delivery_n: number | null;
  recorded_at: string;
}

/** One change of an issue's history (`GET /issues/{key}/changes`): the change, its batch, author and approver. */
export interface IssueChange extends RecordedChange {
  batch_id: number;
  batch_title: string;
  /** who wrote the batch */
  author: string;
  source: BatchSource;
  approved_by: string | null;
  approved_at: string | null;
  command_type: CommandType;
}

/** A command of a batch (`GET /batches/{id}`, SPEC 11.3). */
export interface BatchCommand {
  id: number;
  batch_id: number;
  /** 1-based order in the batch */
  seq: number;
  type: CommandType;
  params: Record<string, unknown>;
  status: CommandStatus;
  deliveries: number;
  pause_seconds: number | null;
  claimed_at: string | null;
  finished_at: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  jira_calls: number;
  rate_limited: number;
  /** the command this one repeats */
  retry_of: number | null;
  /** every handout to the agent, oldest first */
  history: CommandDelivery[];
  /** what it changed in Jira, as the agent reported it with `done` */
  changes: RecordedChange[];
}

/** A batch in a list (`GET /batches`). */
export interface BatchSummary {
  id: number;
  title: string;
  author: string;
  created_at: string;
  cancelled_at: string | null;
  source: BatchSource;
  /** set when the batch was made waiting for approval */
  awaiting_approval_since: string | null;
  approved_by: string | null;
  approved_at: string | null;
  rejected_reason: string | null;
  /** when it joined the queue (created, or approved); null while it waits */
  runnable_at: string | null;
  status: BatchStatus;
  /** sum of the pacing pauses of all its commands */
  estimate_seconds: number;
  /** pauses of its unfinished commands and of every unfinished command ahead of it */
  remaining_seconds: number;
  counts: Record<CommandStatus, number>;
  /** SPEC 17.2: the batch this one reverts */
  revert_of: number | null;
}

/** The verdict of one command at submit (SPEC 16.2). */
export interface CheckedCommand {
  seq: number;
  verdict: CheckVerdict;
  findings: Finding[];
  /** what the checks did or could not judge (Russian) */
  notes: string[];
}

/** The checks a batch was submitted with (SPEC 16.2). */
export interface BatchChecks {
  /** refuse: the batch passed every check; warn: a client stored the catalogue's findings as warnings */
  mode: 'refuse' | 'warn';
  /** the catalogue the checks read; stale: too old, or marked stale by a refusal */
  catalogue: { project_key: string; synced_at: string; stale: boolean } | null;
  counts: Record<CheckVerdict, number>;
  commands: CheckedCommand[];
}

/** One batch with its commands (`GET /batches/{id}`). */
export interface Batch extends BatchSummary {
  /** null for batches of the hub itself and of earlier hubs */
  checks: BatchChecks | null;
  /** what this batch did to Jira, by issue key, in the order it happened */
  changes: Record<string, RecordedChange[]>;
  commands: BatchCommand[];
}

/** Per batch source (SPEC 15.1): does a batch from it wait for a person's approval? */
export type ApprovalSettings = Record<BatchSource, boolean>;

/** SPEC 17.2: what a revert does with the issues the reverted batch created. */
export interface RevertSettings {
  /** the status a created issue is moved to (with the label `hub-reverted`) */
  created_issue_status: string;
  /** delete created issues instead (when the agent's account may delete) */
  delete_created: boolean;
}

/** Every setting of SPEC 9 with its version (`GET /settings`). */
export interface HubSettings extends AgentSettings {
  pacing: Record<PacedType, number>;
  auto_refresh: { interval_minutes: number; jql: string | null };
  backup_keep: number;
  agent_offline_seconds: number;
  approval: ApprovalSettings;
  /** SPEC 16.1: minutes after which the catalogue of Jira's configuration counts as stale */
  catalogue_max_age_minutes: number;
  /** days the audit of the assistant's calls keeps a call */
  audit_retention_days: number;
  revert: RevertSettings;
}
