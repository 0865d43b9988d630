/**
 * The port the MCP tools are written against: what an assistant may ask of the hub. One
 * implementation (http-hub-api.ts) talks to the hub's REST API; the stdio server points it at
 * HUB_URL, the hub's own /mcp endpoint at the hub itself, so every rule (auth, validation, approval,
 * idempotency) stays in the REST pipeline.
 *
 * The views are the REST API's (SPEC 11.3, 15): the agent's and the mirror's from the wire contracts
 * (@jira-hub/contracts), the others type-only from their modules; either way this file stays free of Nest.
 */
import type {
  AgentStatus as AgentStatusView,
  AuditToolCall,
  MirroredIssue as IssueView,
  MirroredIssueDetail as IssueDetailView,
  Note as NoteView,
} from '@jira-hub/contracts';
import type { ImportReport } from '../import/index.js';
import type { ApplyView, DriftView, PackagePlanView } from '../packages/index.js';
import type { BatchSummary, BatchView, CommandView, PlannedCommandView, PlanView, RevertView } from '../queue/index.js';

export type { RevertView };
export type { AgentStatusView, ApplyView, DriftView, PackagePlanView, BatchSummary, BatchView, CommandView, ImportReport, IssueDetailView, IssueView, NoteView, PlannedCommandView, PlanView };

/** The body of POST /batches and POST /batches/plan. */
export interface BatchBody {
  title: string;
  author?: string;
  commands: { type: string; params: Record<string, unknown> }[];
}

export interface BatchQuery {
  status?: string;
  limit?: number;
  before_id?: number;
}

export interface IssueQuery {
  keys?: string[];
  status?: string;
  sprint?: string;
  assignee?: string;
  label?: string;
  q?: string;
  limit?: number;
  offset?: number;
}

/** A page of GET /issues and how many issues match in all (null: the hub did not say). */
export interface IssuePage {
  items: IssueView[];
  total: number | null;
}

/** One MCP tool call for the audit (the wire contract's). */
export type AuditCall = AuditToolCall;

export interface NoteChange {
  fact_status?: string | null;
  comment?: string | null;
}

/** CSV texts of a planning package (SPEC 8, 18): notes.csv, links.csv and (plan, apply) issues.csv. */
export interface PackageTexts {
  notes?: string;
  links?: string;
  issues?: string;
}

export interface HubApi {
  /** where people open the hub's dashboard (no trailing slash) */
  readonly dashboard: string;
  planBatch(body: BatchBody): Promise<PlanView>;
  /** `replayed`: the hub answered an earlier submit with the same idempotency key. */
  createBatch(body: BatchBody, idempotencyKey?: string): Promise<{ batch: BatchView; replayed: boolean }>;
  getBatch(id: number): Promise<BatchView>;
  listBatches(query: BatchQuery): Promise<BatchSummary[]>;
  /** the batch, and how many queued commands this call cancelled (`cancelled_now`: 0 on a repeat) */
  cancelBatch(id: number): Promise<BatchView & { cancelled_now?: number }>;
  cancelCommand(id: number): Promise<CommandView>;
  getCommand(id: number): Promise<CommandView>;
  retryCommand(id: number): Promise<BatchView>;
  agentStatus(): Promise<AgentStatusView>;
  listIssues(query: IssueQuery): Promise<IssuePage>;
  getIssue(key: string): Promise<IssueDetailView>;
  getNote(key: string): Promise<NoteView>;
  putNote(key: string, change: NoteChange): Promise<NoteView>;
  /** settings `link_types`: package name → Jira link type */
  linkTypes(): Promise<Record<string, string>>;
  importPackage(files: PackageTexts): Promise<ImportReport>;
  /** GET /catalogue and its lookups (`path` after /catalogue: '', '/link-types', '/users', …) */
  catalogue<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T>;
  /** SPEC 18: POST /packages/plan, /packages/apply, GET /packages/{id}/drift */
  planPackage(files: PackageTexts, name?: string): Promise<PackagePlanView>;
  applyPackage(files: PackageTexts, name?: string): Promise<ApplyView>;
  packageDrift(id: number): Promise<DriftView>;
  /**
   * SPEC 17.2: POST /batches/{id}/revert (`dryRun`: the plan only; `leavePending`: a dry run's `pending_token` — made
   * leaving exactly the retry_later conflicts that dry run listed, decisions 1467 and 1491)
   */
  revertBatch(id: number, dryRun: boolean, leavePending?: string): Promise<RevertView>;
  /** records a tool call in the hub's audit */
  recordToolCall(call: AuditCall): Promise<void>;
  /** the same API, its REST calls marked as made for `tool` */
  forTool(tool: string): HubApi;
}

/** An error answer of the hub (`{error, detail}`), or the hub out of reach (`status` 0). */
export class HubError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    /** how many findings the detail lists (the answer's `findings` or `errors`), when it lists them */
    readonly findings?: number,
    /** the answer's `findings` (SPEC 16.2: seq, param, code, detail, suggestion), when it has them */
    readonly items?: unknown[],
    /** the batch the refused call was about (a refused command's), for the audit of the tool call */
    readonly batchId?: number,
  ) {
    super(detail);
  }

  /** The same refusal, said to be about `batchId`. */
  about(batchId: number): HubError {
    return new HubError(this.status, this.code, this.detail, this.findings, this.items, batchId);
  }
}
