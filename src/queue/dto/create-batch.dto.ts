import { ApiBody, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
  registerDecorator,
  type ValidationArguments,
} from 'class-validator';
import { IsNonBlank, MaxCharacters, OpaqueJson, ValidatedInSlices } from '../../common/index.js';
import { COMMAND_TYPES, type CommandType, type Params } from '@jira-hub/contracts/catalogue';

export const MAX_COMMANDS = 1000;
/** The longest `title` and `author` of a batch (the MCP tools take the same). */
export const MAX_TITLE = 500;
export const MAX_AUTHOR = 200;

/**
 * Each command is an object. class-validator's nested validation lets an array through as a list of
 * nested values (`commands: [[]]` would reach the service with no type); a non-object it reports itself.
 */
function NoArraysAsCommands() {
  const arrays = (value: unknown) => (Array.isArray(value) ? value.flatMap((c, i) => (Array.isArray(c) ? [i + 1] : [])) : []);
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'noArraysAsCommands',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => arrays(value).length === 0,
        defaultMessage: (args: ValidationArguments) => arrays(args.value).map((n) => `шаг ${n}: нужен объект {type, params}, а не массив`).join('; '),
      },
    });
}

export const COMMAND_EXAMPLES: Record<CommandType, Params> = {
  ensure_issue: { temp_key: 'new:1', issue_type: 'Task', summary: 'Отчёт по продажам', description: 'Квартальный отчёт', parent: 'AURORA-10' },
  ensure_fields: { key: 'new:1', duedate: '2026-12-20', labels: ['отчёты'], assignee: 'ivanov' },
  ensure_status: { key: 'AURORA-1533', path: ['In Progress', 'Done'] },
  ensure_link: { source: 'AURORA-1533', target: 'new:1', link_type: 'Blocks' },
  ensure_sprint: { key: 'new:1', sprint: 'Спринт 2' },
  ensure_comment: { key: 'AURORA-1533', body: 'Согласовано на планировании', marker: 'plan-2026-11' },
  refresh: { keys: ['AURORA-1533', 'new:1'] },
  refresh_catalogue: {},
  remove_link: { source: 'AURORA-1533', target: 'AURORA-1540', link_type: 'Blocks' },
  remove_comment: { key: 'AURORA-1533', comment_id: '30001' },
  delete_issue: { key: 'AURORA-1541', summary: 'Отчёт по продажам' },
};

export class CommandDto {
  @ApiProperty({ enum: COMMAND_TYPES, example: 'ensure_fields' })
  @IsIn(COMMAND_TYPES, { message: `неизвестный тип команды; допустимы: ${COMMAND_TYPES.join(', ')}` })
  type!: CommandType;

  @ApiProperty({
    description:
      'Params of the type (SPEC 4). Examples: ' + Object.entries(COMMAND_EXAMPLES).map(([t, p]) => `${t}: ${JSON.stringify(p)}`).join('; '),
    example: COMMAND_EXAMPLES.ensure_fields,
    type: 'object',
    additionalProperties: true,
  })
  // The params exactly as sent: the checks (catalogue/checks.ts, SPEC 16.2) read them with every other
  // rule in one pass — their names too (SPEC 4: unknown params → 422, also `toString` or `__proto__`),
  // which class-transformer's copy would drop or misread.
  @OpaqueJson('refuse')
  @IsObject({ message: 'нужен объект' })
  params!: Params;
}

export class CreateBatchDto {
  @ApiProperty({ example: 'Планирование спринта 2', maxLength: MAX_TITLE })
  @IsString()
  @MaxLength(MAX_TITLE)
  // in characters as the MCP tools count them (@MaxLength leaves variation selectors out)
  @MaxCharacters(MAX_TITLE)
  @IsNonBlank()
  title!: string;

  // maxLength spelled out for the OpenAPI document: the metadata script reads literals only.
  @ApiPropertyOptional({ description: "defaults to the caller's identity (`api` in open mode)", example: 'ivanov', maxLength: MAX_AUTHOR })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AUTHOR)
  @MaxCharacters(MAX_AUTHOR)
  author?: string;

  @ApiProperty({
    type: [CommandDto],
    description: `1..${MAX_COMMANDS} commands; a tail refresh of every named key is appended unless all are refresh`,
    example: Object.entries(COMMAND_EXAMPLES).map(([type, params]) => ({ type, params })),
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'нужна хотя бы одна команда' })
  @ArrayMaxSize(MAX_COMMANDS, { message: `не больше ${MAX_COMMANDS} команд в пакете` })
  @NoArraysAsCommands()
  @ValidateNested({ each: true })
  @Type(() => CommandDto)
  @ValidatedInSlices()
  commands!: CommandDto[];

  @ApiPropertyOptional({
    enum: ['refuse', 'warn'],
    default: 'refuse',
    description:
      'SPEC 16.2: `warn` stores the findings that depend on the catalogue (names, screens, values, routes, sprints, permissions) as warnings instead of refusing the batch; the client token only (never the assistant). Syntax and Jira\'s limits always refuse.',
  })
  @IsOptional()
  @IsIn(['refuse', 'warn'])
  checks?: 'refuse' | 'warn';
}

/** Request examples of a batch body: every command type at once, then each type alone (with the ensure_issue its new:1 needs). */
const BATCH_EXAMPLES = {
  plan: {
    summary: 'every command type',
    value: { title: 'Планирование спринта 2', commands: Object.entries(COMMAND_EXAMPLES).map(([type, params]) => ({ type, params })) },
  },
  ...Object.fromEntries(
    Object.entries(COMMAND_EXAMPLES).map(([type, params]) => [
      type,
      {
        summary: type,
        value: {
          title: `Пример ${type}`,
          commands:
            type === 'ensure_issue' || !JSON.stringify(params).includes('new:1')
              ? [{ type, params }]
              : [{ type: 'ensure_issue', params: COMMAND_EXAMPLES.ensure_issue }, { type, params }],
        },
      },
    ]),
  ),
};

/** The body of POST /batches and POST /batches/plan in the OpenAPI document, with its examples. */
export const ApiBatchBody = () => ApiBody({ type: CreateBatchDto, examples: BATCH_EXAMPLES });
