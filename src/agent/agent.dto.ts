import { ApiProperty, ApiPropertyOptional } from '../common/openapi.js';
import { IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, MaxLength, Min, Max, ValidateBy, ValidateIf, ValidateNested } from '../common/validators.js';
import { Type } from 'class-transformer';
import type { AgentInfo, AgentStatus, ClaimRequest, ClaimResponse, DeliveredCommand, RedeliveredCommand, ReportBody } from '@jira-hub/contracts';
import { OpaqueJson } from '../common/validation.js';
import { CommandView } from '../queue/rows.js';

/** What the agent says about itself with a claim (SPEC 6.2 step 1). */
export class AgentInfoDto implements AgentInfo {
  @ApiPropertyOptional({ example: '1.0.0' }) @IsOptional() @IsString() @MaxLength(100) agent_version?: string;
  @ApiPropertyOptional({ example: 1, description: 'the settings version the agent works with' })
  @IsOptional()
  @IsInt()
  @Min(0)
  settings_version?: number;
  @ApiPropertyOptional({ example: '2026-11-30T10:00:00.000Z', description: 'a date and time with offset; stored in UTC' })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/, { message: 'нужны дата и время со смещением, например 2026-11-30T10:00:00.000Z' })
  last_jira_call_at?: string;
}

export class ClaimDto extends AgentInfoDto implements ClaimRequest {
  @ApiPropertyOptional({ example: 30, description: 'long poll: hold the request up to this many seconds (at most 60) while there is nothing to hand out' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60)
  wait_seconds?: number;
}

export class DeliveredCommandView implements DeliveredCommand {
  @ApiProperty() id!: number;
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) params!: Record<string, unknown>;
  @ApiProperty() pause_seconds!: number;
  @ApiProperty() batch_id!: number;
  @ApiProperty({ description: 'how many times this command has been handed out, this time included' }) deliveries!: number;
}

export class ClaimView implements ClaimResponse {
  @ApiProperty({ type: DeliveredCommandView, nullable: true }) command!: DeliveredCommandView | null;
  @ApiProperty() settings_version!: number;
}

export class ReportDto implements ReportBody {
  @ApiProperty({
    enum: ['done', 'failed', 'partial'],
    description: 'partial: one part of a large refresh result (`part` = 1, 2, …), then done (which may carry the last slice and missing_keys) or failed',
  })
  @IsIn(['done', 'failed', 'partial'], { message: 'допустимы done, failed и partial' })
  status!: 'done' | 'failed' | 'partial';

  @ApiPropertyOptional({ example: 1, description: 'with status partial only: the number of the part, from 1 in each delivery, in order' })
  @ValidateIf((dto: ReportDto) => dto.status === 'partial' || dto.part !== undefined)
  @ValidateBy({
    name: 'partOnlyWhenPartial',
    validator: { validate: (_, args) => (args?.object as ReportDto).status === 'partial', defaultMessage: () => 'номер части (part) бывает только при status: partial' },
  })
  @IsInt({ message: 'номер части (part) — целое число от 1' })
  @Min(1, { message: 'номер части (part) — целое число от 1' })
  part?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { key: 'AURORA-1600', created: true } })
  @IsOptional()
  @IsObject({ message: 'нужен объект' })
  @OpaqueJson('drop') // Jira's data: a custom field value may hold any key
  result?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'HTTP 400: Field duedate is invalid' })
  @IsOptional()
  @IsString()
  error?: string;

  @ApiPropertyOptional({ example: 3 }) @IsOptional() @IsInt() @Min(0) jira_calls?: number;
  @ApiPropertyOptional({ example: 0 }) @IsOptional() @IsInt() @Min(0) rate_limited?: number;

  @ApiPropertyOptional({
    type: AgentInfoDto,
    description: 'the merged call: also claim the next command in the same transaction (as POST /agent/claim without waiting); the answer carries it in `next`',
  })
  @IsOptional()
  @ValidateBy({
    name: 'claimOnlyWithFinalReport',
    // A part leaves the command claimed: a claim now would hand the same command out again.
    validator: { validate: (_, args) => (args?.object as ReportDto).status !== 'partial', defaultMessage: () => 'claim бывает только при status: done или failed' },
  })
  @IsObject({ message: 'нужен объект' })
  @ValidateNested()
  @Type(() => AgentInfoDto)
  claim?: AgentInfoDto;
}

/** The answer to a report with `claim`: the command view and the claim's answer. */
export class ReportClaimView extends CommandView {
  @ApiProperty({ type: ClaimView, description: 'the next command, claimed in the same transaction' }) next!: ClaimView;
}

export class RedeliveredView implements RedeliveredCommand {
  @ApiProperty() id!: number;
  @ApiProperty() type!: string;
  @ApiProperty() claimed_at!: string;
  @ApiProperty() deliveries!: number;
}

export class AgentStatusView implements AgentStatus {
  @ApiProperty() online!: boolean;
  @ApiProperty({ nullable: true, type: String }) last_seen_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) agent_version!: string | null;
  @ApiProperty({ nullable: true, type: Number }) settings_version!: number | null;
  @ApiProperty({ description: "the agent's settings version is older than the hub's" }) settings_stale!: boolean;
  @ApiProperty({ nullable: true, type: String }) last_jira_call_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) current_command_id!: number | null;
  @ApiProperty() rate_limited_24h!: number;
  @ApiProperty({ type: [RedeliveredView] }) redelivered!: RedeliveredView[];
  @ApiProperty({ nullable: true, type: String }) warning!: string | null;
}
