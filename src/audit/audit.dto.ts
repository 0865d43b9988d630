import type { AuditToolCall } from '@jira-hub/contracts';
import { IsNonBlank, PageQuery, QueryInteger } from '../common/index.js';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

export class AuditQueryDto extends PageQuery {
  /** only the calls that touched this batch */
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(2147483647) // MAX_INTEGER (common/integers.ts), written out for the OpenAPI metadata
  batch_id?: number;
}

/** POST /audit: the stdio MCP server (`jira-hub mcp`) reports one tool call; recorded as channel mcp_stdio. */
export class AuditCallDto implements AuditToolCall {
  /**
   * the tool's name, not blank (a blank name a model called is reported as its JSON string, `" "`)
   * @example 'submit_batch'
   */
  @IsString() @IsNonBlank() @MaxLength(100) tool!: string;

  /** the tool's arguments as the model sent them (stored cut to a size) */
  @IsOptional() arguments?: unknown;

  /**
   * ok, or the error code; not blank
   * @example 'ok'
   */
  @IsString() @IsNonBlank() @MaxLength(100) outcome!: string;

  @IsOptional() @IsString() @MaxLength(100_000) detail?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(2147483647) // MAX_INTEGER (common/integers.ts), written out for the OpenAPI metadata
  batch_id?: number | null;
}

export class AuditView {
  id!: number;
  /** @example '2026-11-30T10:00:00.000Z' */
  at!: string;
  /** mcp: a tool call the hub's MCP endpoint served; mcp_stdio: one the `jira-hub mcp` process reported (POST /audit), not seen by the hub; rest: a REST call with the assistant's role */
  @IsIn(['mcp', 'mcp_stdio', 'rest']) channel!: 'mcp' | 'mcp_stdio' | 'rest';
  /** the MCP tool (for rest: the tool the call was made for, if any) */
  tool!: string | null;
  /** @example 'POST /batches' */
  route!: string | null;
  /** JSON of the arguments, cut to 2,000 characters */
  arguments!: string;
  /** ok, or the error code */
  outcome!: string;
  status!: number | null;
  detail!: string | null;
  batch_id!: number | null;
}
