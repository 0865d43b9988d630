import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
  registerDecorator,
} from 'class-validator';

const PAUSE = { min: 0, max: 3600 };

export class PacingDto {
  @ApiPropertyOptional({ example: 180 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) ensure_issue?: number;
  @ApiPropertyOptional({ example: 120 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) ensure_fields?: number;
  @ApiPropertyOptional({ example: 120 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) ensure_status?: number;
  @ApiPropertyOptional({ example: 90 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) ensure_link?: number;
  @ApiPropertyOptional({ example: 120 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) ensure_sprint?: number;
  @ApiPropertyOptional({ example: 150 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) ensure_comment?: number;
  @ApiPropertyOptional({ example: 60 }) @IsOptional() @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) refresh?: number;
}

export class AutoRefreshDto {
  @ApiPropertyOptional({ description: 'minutes between automatic refreshes; 0 = off', example: 30 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10080)
  interval_minutes?: number;

  @ApiPropertyOptional({ description: 'JQL of the automatic refresh, or null', example: 'project = AURORA', nullable: true, type: String })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MinLength(1)
  jql?: string | null;
}

/** Every value of the object is a non-empty string (link type names). */
function IsStringMap() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isStringMap',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' && value !== null && !Array.isArray(value) &&
          Object.entries(value).every(([k, v]) => k.trim() !== '' && typeof v === 'string' && v.trim() !== ''),
        defaultMessage: () => 'нужен объект «название в пакете» → «тип связи в Jira» из непустых строк',
      },
    });
}

/** PATCH /settings: each key given replaces that setting; `pacing` and `auto_refresh` merge per entry (SPEC 9). */
export class PatchSettingsDto {
  @ApiPropertyOptional({ type: PacingDto, description: 'pause in seconds per command type (0..3600)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PacingDto)
  pacing?: PacingDto;

  @ApiPropertyOptional({ example: { блокирует: 'Blocks', связанные: 'Relates' }, description: 'link type name in packages → Jira link type' })
  @IsOptional()
  @IsStringMap()
  link_types?: Record<string, string>;

  @ApiPropertyOptional({ example: ['customfield_10042', 'Story Points'], description: 'custom field names (ids or Jira display names) allowed in ensure_fields' })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Matches(/\S/, { each: true, message: 'имя поля не может быть пустым' })
  fields?: string[];

  @ApiPropertyOptional({ type: AutoRefreshDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AutoRefreshDto)
  auto_refresh?: AutoRefreshDto;

  @ApiPropertyOptional({ example: 20, description: 'how many batch backups to keep (1..1000)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  backup_keep?: number;

  @ApiPropertyOptional({ example: 120, description: 'the agent counts as offline after this many seconds unseen' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86400)
  agent_offline_seconds?: number;
}

export class SettingsView {
  @ApiProperty({ example: 1 }) version!: number;
  @ApiProperty({ type: PacingDto }) pacing!: PacingDto;
  @ApiProperty({ example: { блокирует: 'Blocks' } }) link_types!: Record<string, string>;
  @ApiProperty({ type: [String] }) fields!: string[];
  @ApiProperty({ type: AutoRefreshDto }) auto_refresh!: AutoRefreshDto;
  @ApiProperty() backup_keep!: number;
  @ApiProperty() agent_offline_seconds!: number;
}

export class AgentSettingsView {
  @ApiProperty() version!: number;
  @ApiProperty({ type: PacingDto }) pacing!: PacingDto;
  @ApiProperty() link_types!: Record<string, string>;
  @ApiProperty({ type: [String] }) fields!: string[];
}
