import type { MirroredIssue, MirroredIssueDetail, Note } from '@jira-hub/contracts';
import { ApiProperty, ApiPropertyOptional } from '../common/openapi.js';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from '../common/validators.js';
import { NOTE_LIMITS } from './note-limits.js';

export class ListIssuesQuery {
  @ApiPropertyOptional({ description: 'comma-separated Jira keys', example: 'AURORA-1533,AURORA-1586' })
  @IsOptional()
  @IsString()
  keys?: string;

  @ApiPropertyOptional({ example: 'In Progress' }) @IsOptional() @IsString() status?: string;
  @ApiPropertyOptional({ example: 'Спринт 2' }) @IsOptional() @IsString() sprint?: string;
  @ApiPropertyOptional({ description: 'exact assignee (accountId on Cloud, user name on DC)', example: 'ivanov' }) @IsOptional() @IsString() assignee?: string;
  @ApiPropertyOptional({ description: 'issues that have this label (exact)', example: 'backend' }) @IsOptional() @IsString() label?: string;
  @ApiPropertyOptional({
    description: 'words of the summary or key: every word given must start a word of the issue (case-insensitive, ё = е), e.g. «отч прод» finds «Отчёт о продажах»',
    example: 'отчёт',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  q?: string;

  @ApiPropertyOptional({
    description: 'continue after this key (issues are ordered by key): pass the X-Next-Cursor header of the previous page',
    example: 'AURORA-1533',
  })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  cursor?: string;

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: Number.MAX_SAFE_INTEGER })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER) // SQLite's OFFSET takes a 64-bit integer: 1e19 would be a 500
  offset?: number;
}

export class PutNoteDto {
  @ApiPropertyOptional({ nullable: true, type: String, example: 'в работе у подрядчика' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(NOTE_LIMITS.fact_status)
  fact_status?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, example: 'ждём ответа от юристов' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(NOTE_LIMITS.comment)
  comment?: string | null;
}

export class NoteView implements Note {
  @ApiProperty({ example: 'AURORA-1533' }) key!: string;
  @ApiProperty({ nullable: true, type: String }) fact_status!: string | null;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'api' }) source!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated_at!: string | null;
}

export class IssueView implements MirroredIssue {
  @ApiProperty({ example: 'AURORA-1533' }) key!: string;
  @ApiProperty({ nullable: true, type: String }) summary!: string | null;
  @ApiProperty({ nullable: true, type: String }) issue_type!: string | null;
  @ApiProperty({ nullable: true, type: String }) status!: string | null;
  @ApiProperty({ nullable: true, type: String }) sprint!: string | null;
  @ApiProperty({ nullable: true, type: String }) assignee!: string | null;
  @ApiProperty({ nullable: true, type: String }) priority!: string | null;
  @ApiProperty({ nullable: true, type: String }) duedate!: string | null;
  @ApiProperty({ type: [String] }) labels!: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) fields!: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: String }) created!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated!: string | null;
  @ApiProperty({ nullable: true, type: String }) synced_at!: string | null;
}

export class LinkOutView {
  @ApiProperty() target_key!: string;
  @ApiProperty() link_type!: string;
}

export class LinkInView {
  @ApiProperty() source_key!: string;
  @ApiProperty() link_type!: string;
}

export class IssueDetailView extends IssueView implements MirroredIssueDetail {
  @ApiProperty({ type: [LinkOutView] }) links_out!: LinkOutView[];
  @ApiProperty({ type: [LinkInView] }) links_in!: LinkInView[];
  @ApiProperty({ type: NoteView, nullable: true }) note!: NoteView | null;
}

export class SyncRunView {
  @ApiProperty() id!: number;
  @ApiProperty() started_at!: string;
  @ApiProperty({ nullable: true, type: String }) finished_at!: string | null;
  @ApiProperty({ enum: ['keys', 'jql'] }) kind!: string;
  @ApiProperty({ nullable: true, type: String }) query!: string | null;
  @ApiProperty({ nullable: true, type: Number }) command_id!: number | null;
  @ApiProperty({ nullable: true, type: Number }) issues!: number | null;
  @ApiProperty({ nullable: true, type: Number }) links!: number | null;
  @ApiProperty({ type: [String], description: 'keys asked for and not returned' }) missing!: string[];
  @ApiProperty({ description: 'parts of a large result applied (0: the result came whole)' }) parts!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'the delivery of the command whose result the counts describe' }) delivery!: number | null;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}
