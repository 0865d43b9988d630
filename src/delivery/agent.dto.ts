import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  Max,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import type {
  AgentCurrentCommand,
  AgentInfo,
  AgentNextCommand,
  AgentStatus,
  Change,
  ClaimRequest,
  ClaimResponse,
  DeliveredCommand,
  QueuedStatusTarget,
  RedeliveredCommand,
  ReportBody,
  SeenTransitions,
} from '@jira-hub/contracts';
import { JIRA_KEY, OpaqueJson } from '../common/index.js';
import { changesProblems, CommandView } from '../queue/index.js';

/** What the agent says about itself with a claim (SPEC 6.2 step 1). */
export class AgentInfoDto implements AgentInfo {
  /** @example '1.0.0' */
  @IsOptional() @IsString() @MaxLength(100) agent_version?: string;
  /**
   * the settings version the agent works with
   * @example 1
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2147483647) // MAX_INTEGER (common/integers.ts), written out for the OpenAPI metadata
  settings_version?: number;
  /**
   * a date and time with offset; stored in UTC
   * @example '2026-11-30T10:00:00.000Z'
   */
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/, { message: 'нужны дата и время со смещением, например 2026-11-30T10:00:00.000Z' })
  last_jira_call_at?: string;

  /**
   * SPEC 16.3: `failed` while Jira refuses the agent's credentials (HTTP 401) — such a claim hands out nothing
   * and GET /agent warns; `ok` once Jira accepts them again
   * @example 'ok'
   */
  @IsOptional()
  @IsIn(['ok', 'failed'], { message: 'допустимы ok и failed' })
  jira_auth?: 'ok' | 'failed';

  /**
   * since when Jira refuses the credentials, a date and time with offset
   * @example '2026-11-30T10:00:00.000Z'
   */
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/, { message: 'нужны дата и время со смещением, например 2026-11-30T10:00:00.000Z' })
  jira_auth_failed_since?: string;
}

export class ClaimDto extends AgentInfoDto implements ClaimRequest {
  /**
   * long poll: hold the request up to this many seconds (at most 60) while there is nothing to hand out
   * @example 30
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60)
  wait_seconds?: number;
}

export class DeliveredCommandView implements DeliveredCommand {
  id!: number;
  type!: string;
  params!: Record<string, unknown>;
  pause_seconds!: number;
  batch_id!: number;
  /** how many times this command has been handed out, this time included */
  deliveries!: number;
}

export class ClaimView implements ClaimResponse {
  command!: DeliveredCommandView | null;
  settings_version!: number;
}

export class SeenTransitionDto {
  /** @example '11' */
  @IsString() @MaxLength(255) id!: string;
  /** @example 'Start' */
  @IsString() @MaxLength(255) name!: string;
  /** the status it leads to @example 'In Progress' */
  @IsString() @MaxLength(255) to!: string;
  /** field ids the transition screen requires without a default @example ["resolution"] */
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  required_fields!: string[];
}

/** What the agent saw of an issue's transitions where a status walk stopped (decision 1485). */
export class SeenTransitionsDto implements SeenTransitions {
  /** @example 'AURORA-7' */
  @Matches(JIRA_KEY, { message: 'нужен ключ Jira (ABC-123)' })
  key!: string;
  /** the issue type's name @example 'Bug' */
  @IsString() @MaxLength(255) issue_type!: string;
  /** the status the issue was in @example 'To Do' */
  @IsString() @MaxLength(255) status!: string;
  @IsArray()
  @ArrayMaxSize(200, { message: 'не больше 200 переходов' })
  @ValidateNested({ each: true })
  @Type(() => SeenTransitionDto)
  transitions!: SeenTransitionDto[];
}

export class ReportDto implements ReportBody {
  /**
   * partial: one part of a large refresh result (`part` = 1, 2, …), then done (which may carry the last slice and missing_keys) or failed;
   * released: Jira refused the agent's credentials (HTTP 401) — the command goes back to the queue in its place, this delivery not counted (SPEC 16.3)
   */
  @IsIn(['done', 'failed', 'partial', 'released'], { message: 'допустимы done, failed, partial и released' })
  status!: 'done' | 'failed' | 'partial' | 'released';

  /**
   * with status partial only: the number of the part, from 1 in each delivery, in order
   * @example 1
   */
  @ValidateIf((dto: ReportDto) => dto.status === 'partial' || dto.part !== undefined)
  @ValidateBy({
    name: 'partOnlyWhenPartial',
    validator: { validate: (_, args) => (args?.object as ReportDto).status === 'partial', defaultMessage: () => 'номер части (part) бывает только при status: partial' },
  })
  @IsInt({ message: 'номер части (part) — целое число от 1' })
  @Min(1, { message: 'номер части (part) — целое число от 1' })
  @Max(2147483647, { message: 'номер части (part) — не больше 2147483647' }) // MAX_INTEGER (common/integers.ts), written out for the OpenAPI metadata
  part?: number;

  /** @example {"key": "AURORA-1600", "created": true} */
  @IsOptional()
  @IsObject({ message: 'нужен объект' })
  @OpaqueJson('drop') // Jira's data: a custom field value may hold any key
  result?: Record<string, unknown>;

  /**
   * with done: what the command changed in Jira (SPEC 17.1), each `{key?, what, before?, after?, transitions?}`; with failed: what it changed before it failed (e.g. a status walk refused partway), kept the same way
   * @example [{"key": "AURORA-1", "what": "field:duedate", "before": null, "after": "2026-12-20"}]
   */
  @IsOptional()
  @OpaqueJson('drop') // before/after are Jira's values
  @ValidateBy({
    name: 'changeRecord',
    // The answer names the field itself («changes: …»): a problem of the whole list says only what is wrong.
    validator: { validate: (v) => changesProblems(v).length === 0, defaultMessage: (args) => changesProblems(args?.value).map((p) => p.replace(/^changes: /, '')).join('; ') },
  })
  changes?: Change[];

  /** @example 'HTTP 400: Field duedate is invalid' */
  @IsOptional()
  @IsString()
  error?: string;

  /**
   * with failed only: the issues the command named that Jira answered 404 for (deleted, moved to another project, or hidden from the agent); the hub records them as a refresh's missing_keys, so plans and drift see them gone (decision 1448). Keys the command does not name are left out.
   * @example ["AURORA-1533"]
   */
  @ValidateIf((dto: ReportDto) => dto.missing_keys !== undefined)
  @ValidateBy({
    name: 'missingKeysOnlyWhenFailed',
    validator: { validate: (_, args) => (args?.object as ReportDto).status === 'failed', defaultMessage: () => 'missing_keys бывают только при status: failed' },
  })
  @IsArray()
  @ArrayMaxSize(100, { message: 'не больше 100 ключей' }) // a command names at most two issues; written out for the OpenAPI metadata
  @Matches(JIRA_KEY, { each: true, message: 'нужны ключи Jira (ABC-123)' })
  missing_keys?: string[];

  /**
   * with failed of an ensure_status only: the transitions Jira offered the issue where the walk stopped for want of one; the hub learns them into a catalogue whose transitions are observed (decision 1485)
   */
  @ValidateIf((dto: ReportDto) => dto.transitions_seen !== undefined)
  @ValidateBy({
    name: 'transitionsSeenOnlyWhenFailed',
    validator: { validate: (_, args) => (args?.object as ReportDto).status === 'failed', defaultMessage: () => 'transitions_seen бывают только при status: failed' },
  })
  @IsObject({ message: 'нужен объект' })
  @ValidateNested()
  @Type(() => SeenTransitionsDto)
  transitions_seen?: SeenTransitionsDto;

  /** @example 3 */
  @IsOptional() @IsInt() @Min(0) @Max(2147483647) jira_calls?: number;
  /** @example 0 */
  @IsOptional() @IsInt() @Min(0) @Max(2147483647) rate_limited?: number;

  /** the merged call: also claim the next command in the same transaction (as POST /agent/claim without waiting); the answer carries it in `next` */
  @IsOptional()
  @ValidateBy({
    name: 'claimOnlyWithFinalReport',
    // A part leaves the command claimed: a claim now would hand the same command out again; a release means Jira refuses the agent.
    validator: { validate: (_, args) => !['partial', 'released'].includes((args?.object as ReportDto).status), defaultMessage: () => 'claim бывает только при status: done или failed' },
  })
  @IsObject({ message: 'нужен объект' })
  @ValidateNested()
  @Type(() => AgentInfoDto)
  claim?: AgentInfoDto;
}

/** The answer to a report with `claim`: the command view and the claim's answer. */
export class ReportClaimView extends CommandView {
  /** the next command, claimed in the same transaction */
  next!: ClaimView;
}

export class RedeliveredView implements RedeliveredCommand {
  id!: number;
  type!: string;
  claimed_at!: string;
  deliveries!: number;
}

export class AgentCurrentCommandView implements AgentCurrentCommand {
  id!: number;
  batch_id!: number;
  seq!: number;
  type!: string;
  params!: Record<string, unknown>;
  claimed_at!: string;
  deliveries!: number;
  pause_seconds!: number | null;
  /** the agent sleeps until then before it calls Jira (last_jira_call_at + pause_seconds); null: no pause */
  pause_until!: string | null;
}

export class AgentNextCommandView implements AgentNextCommand {
  id!: number;
  batch_id!: number;
  seq!: number;
  type!: string;
  params!: Record<string, unknown>;
  /** estimate of when the agent starts it; null while the agent is offline */
  starts_at!: string | null;
}

export class AgentStatusView implements AgentStatus {
  online!: boolean;
  last_seen_at!: string | null;
  agent_version!: string | null;
  settings_version!: number | null;
  /** the agent's settings version is older than the hub's */
  settings_stale!: boolean;
  last_jira_call_at!: string | null;
  current_command_id!: number | null;
  rate_limited_24h!: number;
  redelivered!: RedeliveredView[];
  /** what the agent last told of Jira's view of its credentials (SPEC 16.3); null before it told anything */
  jira_auth!: 'ok' | 'failed' | null;
  /** since when Jira refuses them, while it does */
  jira_auth_failed_since!: string | null;
  warning!: string | null;
  current_command!: AgentCurrentCommandView | null;
  next_command!: AgentNextCommandView | null;
}

/** One status of GET /agent/queued-statuses with the issue types walked there (QueuedStatusTarget). */
export class QueuedStatusTargetView implements QueuedStatusTarget {
  /** @example 'In Review' */
  status!: string;
  /**
   * the types of the issues the commands walk to it (from the mirror, or the ensure_issue of a temp key)
   * @example ['Bug']
   */
  issue_types!: string[];
  /** some command walks an issue whose type the hub does not know (not in the mirror): judge it against every workflow */
  unknown_type!: boolean;
}

/** GET /agent/queued-statuses: what the agent's `--check` verifies are reachable in Jira. */
export class QueuedStatusesView {
  /** @example ['Done', 'In Progress'] */
  statuses!: string[];
  /** each status with the issue types walked there: the workflows `--check` judges it against */
  targets!: QueuedStatusTargetView[];
}
