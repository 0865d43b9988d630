import type { AgentSettings } from '@jira-hub/contracts';
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsInt, IsObject, Max, MaxLength, Min, ValidateIf, ValidateNested, registerDecorator, type ValidationArguments } from 'class-validator';
import { JQL_MAX } from '@jira-hub/contracts/catalogue';
import { ExplainFields, isNonBlank, IsNonBlank } from '../common/index.js';
import { customFieldNameProblems } from './field-names.js';
import { settingWords } from './setting-words.js';

/**
 * The key may be left out (PATCH is partial), but given it is validated, `null` included: `null`
 * never means "leave as is" nor "back to the default". (`@IsOptional()` would let `null` through and
 * it would be stored.) Only `auto_refresh.jql` may be null, and says so itself.
 * Put it last, nearest the property: decorators register bottom-up, so its message comes first.
 */
function Optional(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_, v) => v !== undefined),
    (object: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'isNotNull',
        target: object.constructor,
        propertyName: propertyName as string,
        validator: { validate: (v: unknown) => v !== null, defaultMessage: () => 'null недопустим: чтобы не менять значение, не передавайте ключ' },
      }),
  );
}

/** Custom field names (settings `fields`): none a standard param name of a command, none repeated. */
function IsCustomFieldNames() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isCustomFieldNames',
      target: object.constructor,
      propertyName,
      validator: {
        // Shape (array of non-blank strings) is for the other constraints; this one checks the names.
        validate: (value: unknown) => !Array.isArray(value) || customFieldNameProblems(value.filter(isNonBlank)) === null,
        defaultMessage: (args?: ValidationArguments) => customFieldNameProblems(Array.isArray(args?.value) ? args.value.filter(isNonBlank) : []) ?? '',
      },
    });
}

const PAUSE = { min: 0, max: 3600 };

export class PacingDto {
  /** @example 180 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() ensure_issue?: number;
  /** @example 120 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() ensure_fields?: number;
  /** @example 120 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() ensure_status?: number;
  /** @example 90 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() ensure_link?: number;
  /** @example 120 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() ensure_sprint?: number;
  /** @example 150 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() ensure_comment?: number;
  /** @example 60 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() refresh?: number;
  /** @example 90 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() remove_link?: number;
  /** @example 150 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() remove_comment?: number;
  /** @example 180 */
  @IsInt() @Min(PAUSE.min) @Max(PAUSE.max) @Optional() delete_issue?: number;
}

export class AutoRefreshDto {
  /**
   * minutes between automatic refreshes; 0 = off
   * @example 30
   */
  @IsInt()
  @Min(0)
  @Max(10080)
  @Optional()
  interval_minutes?: number;

  /**
   * JQL of the automatic refresh (non-blank after trim), or null: no automatic refresh
   * @example 'project = AURORA'
   */
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsNonBlank('нужна непустая строка JQL или null')
  @MaxLength(JQL_MAX, { message: `не длиннее ${JQL_MAX} символов` })
  jql?: string | null;
}

/** SPEC 15.2: per batch source, whether its batches wait for a person's approval. */
export class ApprovalDto {
  /**
   * the AI assistant's batches
   * @example true
   */
  @IsBoolean() @Optional() assistant?: boolean;
  /**
   * batches submitted with the client token (a person, a tool)
   * @example false
   */
  @IsBoolean() @Optional() client?: boolean;
  /**
   * the hub's own auto-refresh
   * @example false
   */
  @IsBoolean() @Optional() hub?: boolean;
}

/** SPEC 17.2: what a revert does with the issues the reverted batch created. */
export class RevertSettingsDto {
  /**
   * the status a created issue goes to, with the label hub-reverted
   * @example 'Done'
   */
  @IsNonBlank('нужно непустое название статуса')
  @Optional()
  created_issue_status?: string;
  /**
   * delete created issues instead (delete_issue; only when the agent's account may delete)
   * @example false
   */
  @IsBoolean() @Optional() delete_created?: boolean;
}

/** Every value of the object is a non-empty string (link type names). */
/**
 * What is wrong with a `link_types` map, in words (null: nothing). A word is matched trimmed and letter case
 * aside (a package's «Блокирует» is «блокирует»), so two words that differ only so, or a word or type with
 * spaces at its ends (which one route trimmed and another did not), make the map mean two things.
 */
export function linkTypesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.entries(value).every(([k, v]) => k.trim() !== '' && typeof v === 'string' && v.trim() !== '')) {
    return 'нужен объект «название в пакете» → «тип связи в Jira» из непустых строк';
  }
  const entries = Object.entries(value as Record<string, string>);
  const spaced = entries.flatMap(([k, v]) => [k, v]).find((t) => t !== t.trim());
  if (spaced !== undefined) return `«${spaced}»: пробелы в начале или в конце — уберите их`;
  const seen = new Map<string, string>();
  for (const [k] of entries) {
    const other = seen.get(k.toLowerCase());
    if (other !== undefined) return `«${other}» и «${k}» — одно слово (регистр не различается): оставьте одно`;
    seen.set(k.toLowerCase(), k);
  }
  return null;
}

function IsStringMap() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isStringMap',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => linkTypesProblem(value) === null,
        defaultMessage: (args) => linkTypesProblem(args?.value) ?? '',
      },
    });
}

/**
 * PATCH /settings: each key given replaces that setting; `pacing` and `auto_refresh` merge per entry (SPEC 9).
 * A 422 names each key as sent and what it is in words (settingWords); a key there is no such setting of is
 * «неизвестная настройка».
 */
@ExplainFields(settingWords, 'неизвестная настройка')
export class PatchSettingsDto {
  /** pause in seconds per command type (0..3600); null is refused, here and for every key but auto_refresh.jql */
  @IsObject()
  @ValidateNested()
  @Type(() => PacingDto)
  @Optional()
  pacing?: PacingDto;

  /**
   * link type name in packages → Jira link type
   * @example {"блокирует": "Blocks", "связанные": "Relates"}
   */
  @IsStringMap()
  @Optional()
  link_types?: Record<string, string>;

  /**
   * custom field names (ids or Jira display names) allowed in ensure_fields: non-blank, no repeats, none a standard param name of a command (key, summary, source, …)
   * @example ["customfield_10042", "Story Points"]
   */
  @IsArray()
  @IsNonBlank('имя поля должно быть непустой строкой', true)
  @IsCustomFieldNames()
  @Optional()
  fields?: string[];

  @IsObject()
  @ValidateNested()
  @Type(() => AutoRefreshDto)
  @Optional()
  auto_refresh?: AutoRefreshDto;

  /**
   * how many batch backups to keep (1..1000)
   * @example 20
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  @Optional()
  backup_keep?: number;

  /**
   * the agent counts as offline after this many seconds unseen
   * @example 120
   */
  @IsInt()
  @Min(1)
  @Max(86400)
  @Optional()
  agent_offline_seconds?: number;

  /** which sources' batches wait for a person's approval (merged per entry) */
  @IsObject()
  @ValidateNested()
  @Type(() => ApprovalDto)
  @Optional()
  approval?: ApprovalDto;

  /**
   * SPEC 16.1: minutes after which the catalogue of Jira's configuration counts as stale (refreshed when the queue is idle; checks answer `unknown`), 1..525600
   * @example 1440
   */
  @IsInt()
  @Min(1)
  @Max(525600)
  @Optional()
  catalogue_max_age_minutes?: number;

  /** what a revert does with created issues (merged per entry) */
  @IsObject()
  @ValidateNested()
  @Type(() => RevertSettingsDto)
  @Optional()
  revert?: RevertSettingsDto;

  /**
   * days the audit of the assistant's calls keeps a call (1..3650)
   * @example 90
   */
  @IsInt()
  @Min(1)
  @Max(3650)
  @Optional()
  audit_retention_days?: number;
}

export class AgentSettingsView implements AgentSettings {
  version!: number;
  pacing!: PacingDto;
  link_types!: Record<string, string>;
  fields!: string[];
}
