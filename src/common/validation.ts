import { ValidationError, ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { DuplicateSummaryError, FieldError, ValidationFailedError } from './errors.js';
import { illFormedStrings, NUL_DETAIL, nulStrings } from './text.js';
import { pause, sliceElapsed } from './turns.js';
import { passPipe, SLICE_ITEMS, slicedProperty, validateInSlices } from './validation-slices.js';

/** class-validator constraint name of the duplicate-summary rule (SPEC 5); its failure is answered as `duplicate_summary`. */
export const DUPLICATE_SUMMARY = 'noDuplicateSummaries';

const number = (message: string) => /(-?\d+(?:\.\d+)?)\s*(?:characters|elements)?\s*$/.exec(message)?.[1] ?? '';
const after = (message: string, marker: string) => message.slice(message.indexOf(marker) + marker.length).trim();

/** A key no DTO of the body has (whitelist), or one named like a built-in member; a DTO may word it its own way (ExplainFields). */
export const UNKNOWN_FIELD_DETAIL = 'неизвестное поле';

/**
 * Russian texts for class-validator's built-in constraints (SPEC 12: texts for people are Russian).
 * Our own constraints already speak Russian and pass through.
 */
const RUSSIAN: Record<string, (english: string) => string> = {
  whitelistValidation: () => UNKNOWN_FIELD_DETAIL,
  isDefined: () => 'обязательное поле',
  isInt: () => 'нужно целое число',
  isNumber: () => 'нужно число',
  min: (m) => `не меньше ${number(m)}`,
  max: (m) => `не больше ${number(m)}`,
  isString: () => 'нужна строка',
  isBoolean: () => 'нужно true или false',
  isIn: (m) => `допустимые значения: ${after(m, 'following values:')}`,
  isObject: () => 'нужен объект',
  isArray: () => 'нужен массив',
  isIso8601: () => 'нужны дата и время в формате ISO-8601, например 2026-11-30T10:00:00.000Z',
  maxLength: (m) => `не длиннее ${number(m)} символов`,
  minLength: (m) => `не короче ${number(m)} символов`,
  arrayMinSize: (m) => `нужно не меньше ${number(m)} элементов`,
  arrayMaxSize: (m) => `нужно не больше ${number(m)} элементов`,
  nestedValidation: () => 'нужен объект',
  matches: () => 'значение не подходит по формату',
};

const CYRILLIC = /[А-Яа-яЁё]/;

function russian(constraint: string, message: string): string {
  if (CYRILLIC.test(message)) return message;
  return RUSSIAN[constraint]?.(message) ?? 'некорректное значение';
}

/**
 * Constraints about a value's kind, most telling first (settings' own `isNotNull` explains a null):
 * when one fails, the others and the limits on that kind (length, size, range) say nothing more.
 */
const KIND = ['isNotNull', 'isString', 'isArray', 'isObject', 'isInt', 'isNumber', 'isBoolean', 'nestedValidation'];

/**
 * The constraints worth telling for one field, one message per problem: a missing value is only
 * "required" (not also too short and of the wrong kind), a value of the wrong kind only that.
 */
export function problemsOf(e: Pick<ValidationError, 'value' | 'constraints'>): [string, string][] {
  const all = Object.entries(e.constraints ?? {});
  if (all.length === 0) return [];
  if (e.value === undefined) return [['isDefined', e.constraints?.isDefined ?? 'обязательное поле']];
  const kind = KIND.find((constraint) => e.constraints?.[constraint] !== undefined);
  return kind ? [[kind, e.constraints![kind]]] : all;
}

function flatten(errors: ValidationError[], prefix = ''): (FieldError & { constraint: string })[] {
  const out: (FieldError & { constraint: string })[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    // Two constraints may find the same problem in the same words (@MaxLength and @MaxCharacters): said once.
    const said = new Set<string>();
    for (const [constraint, message] of problemsOf(e)) {
      const detail = russian(constraint, message);
      if (!said.has(detail)) out.push({ field, detail, constraint });
      said.add(detail);
    }
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

/** The spec's error for a failed DTO validation (SPEC 11.1): 422 with a Russian detail and one entry per field. */
export function validationException(errors: ValidationError[]): Error {
  const flat = flatten(errors);
  const duplicate = flat.find((e) => e.constraint === DUPLICATE_SUMMARY);
  const list = flat.map(({ field, detail }) => ({ field, detail }));
  if (duplicate) return new DuplicateSummaryError(duplicate.detail, list);
  return new ValidationFailedError(list.length ? fieldsDetail(list) : 'запрос не прошёл проверку', list);
}

/** What a field of a body is, in words (Russian), by its path as sent (`pacing.refresh`); undefined: nothing to add. */
export type FieldWords = (field: string) => string | undefined;

/**
 * The detail of a 422 naming its fields: «pacing.refresh (пауза перед обновлением зеркала, секунды): не
 * больше 3600» — each field by its path as sent (what the person put in the body), with what it is in words
 * where `words` know it (decision 1439). The entries of `errors` keep the bare path and problem.
 */
export function fieldsDetail(errors: readonly FieldError[], words?: FieldWords): string {
  const named = (field: string) => {
    const said = words?.(field);
    return said === undefined ? field : `${field} (${said})`;
  };
  return errors.map((e) => `${named(e.field)}: ${e.detail}`).join('; ');
}

/** How a body DTO explains its fields (ExplainFields). */
interface Explanation {
  words: FieldWords;
  /** what a key the body has no such field of is, instead of «неизвестное поле» */
  unknown?: string;
}

/** The explanations of the body DTOs (ExplainFields). */
const FIELD_WORDS = new Map<Function, Explanation>(); // eslint-disable-line @typescript-eslint/no-unsafe-function-type

/**
 * A body DTO whose 422 names its fields in words besides their paths (fieldsDetail): a body whose keys are
 * not self-explanatory to a person (settings: `pacing.ensure_issue`, `backup_keep`). `unknown` words a key
 * the body has no field of, in `detail` and `errors` alike (settings: «неизвестная настройка»).
 */
export function ExplainFields(words: FieldWords, unknown?: string): ClassDecorator {
  return (target) => {
    FIELD_WORDS.set(target, { words, ...(unknown === undefined ? {} : { unknown }) });
  };
}

/** A 422 of a body whose DTO explains its fields, its detail worded so; any other error as it is. */
function explained(err: unknown, metatype: ArgumentMetadata['metatype']): unknown {
  const explanation = metatype ? FIELD_WORDS.get(metatype) : undefined;
  if (!explanation || !(err instanceof ValidationFailedError) || err.errors.length === 0) return err;
  const { words, unknown } = explanation;
  const errors = unknown === undefined ? err.errors : err.errors.map((e) => (e.detail === UNKNOWN_FIELD_DETAIL ? { ...e, detail: unknown } : e));
  return new ValidationFailedError(fieldsDetail(errors, words), errors, err.findings);
}

/**
 * Keys no structured part of a body has: the members of `Object.prototype` (`__proto__`,
 * `constructor`, `toString`, …) and `prototype`. Nest's pipe deletes three of them silently and
 * class-transformer drops the rest (the instance already has them), so they would vanish instead of
 * being refused as unknown fields.
 */
export const BUILT_IN_KEYS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** The keys class-transformer cannot copy at all (it reads an own `constructor` as the value's class). */
const UNCOPYABLE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What the pipe does with `constructor`, `__proto__` and `prototype` below the own keys of an opaque
 * value: `refuse` for what the hub passes on to Jira (a command's params), `drop` for what it receives
 * from Jira (a report's result: an app's field value is kept, less the keys nothing could carry).
 */
export type DeepUncopyable = 'refuse' | 'drop';

/** The DTO properties marked `@OpaqueJson()`, by name: their values are data, not this API's fields. */
const OPAQUE = new Map<string, DeepUncopyable>();
/** The opaque properties declared directly on each DTO class (the top level of a body). */
const OPAQUE_OF_CLASS = new Map<Function, Set<string>>(); // eslint-disable-line @typescript-eslint/no-unsafe-function-type

/**
 * A DTO property whose value is free JSON kept as sent: a command's `params` (the catalogue checks
 * their names itself, `toString` included) and a report's `result` (Jira's data). The pipe checks only
 * the three keys class-transformer cannot copy (see `checkBuiltInKeys`), and class-transformer's copy
 * is replaced by the value itself.
 */
export function OpaqueJson(deep: DeepUncopyable): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    const known = OPAQUE.get(String(key));
    if (known !== undefined && known !== deep) throw new Error(`@OpaqueJson: ${String(key)} is declared with two rules`);
    OPAQUE.set(String(key), deep);
    const owner = (target as { constructor: Function }).constructor; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
    OPAQUE_OF_CLASS.set(owner, new Set([...(OPAQUE_OF_CLASS.get(owner) ?? []), String(key)]));
    Transform(({ obj }: { obj: Record<string, unknown> }) => (Object.hasOwn(obj, key) ? obj[key as string] : undefined), { toClassOnly: true })(target, key);
  };
}

type Part = { kind: 'structured' } | { kind: 'opaque'; deep: DeepUncopyable } | { kind: 'inside-opaque'; deep: DeepUncopyable };

/**
 * Walks a parsed body. In its structured part a key named like a built-in member is refused (its
 * path is returned: `commands.0.constructor`); so is an uncopyable key among the own keys of an
 * opaque value (`commands.0.params.constructor`). Deeper inside an opaque value uncopyable keys are
 * refused too (`refuse`), or deleted, as Nest does everywhere (`drop`); the rest is kept.
 */
export function checkBuiltInKeys(body: unknown): string[] {
  const refused: string[] = [];
  const seen = new WeakSet<object>();
  const stack: [unknown, string, Part][] = [[body, '', { kind: 'structured' }]];
  while (stack.length > 0) {
    const [current, path, part] = stack.pop()!;
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const at = path ? `${path}.${key}` : key;
      if (part.kind === 'structured' ? BUILT_IN_KEYS.has(key) : UNCOPYABLE_KEYS.has(key)) {
        if (part.kind === 'inside-opaque' && part.deep === 'drop') delete record[key];
        else refused.push(at);
        continue;
      }
      const deep = part.kind === 'structured' && !Array.isArray(record) ? OPAQUE.get(key) : undefined;
      const next: Part = part.kind !== 'structured' ? { kind: 'inside-opaque', deep: part.deep } : deep ? { kind: 'opaque', deep } : part;
      stack.push([record[key], at, next]);
    }
  }
  return refused.sort();
}

/** A query parameter given more than once (Express reads `?status=a&status=b` as a list). */
export const REPEATED_PARAM_DETAIL = 'параметр указан несколько раз: нужно одно значение';

/** The parameters of a query given more than once (Express reads `?status=a&status=b` as a list). */
function repeatedParams(query: unknown): string[] {
  return isPlainObject(query) ? Object.keys(query).filter((k) => Array.isArray((query as Record<string, unknown>)[k])) : [];
}

/** The options of the one global pipe. */
const PIPE_OPTIONS = {
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
  errorHttpStatusCode: 422,
  exceptionFactory: validationException,
  // `value` tells a missing field from a wrong one (problemsOf); it never reaches the answer.
  validationError: { target: false, value: true },
};

/**
 * Refuses (422) a body with a key named like a built-in member in its structured part instead of
 * dropping the key silently: an unknown field is an error (SPEC 4, 11.1).
 */
class HubValidationPipe extends ValidationPipe {
  /** The same validation, answering class-validator's errors: the passes of a body validated in slices (validation-slices.ts). */
  private readonly passes = passPipe(PIPE_OPTIONS);

  constructor(private readonly sliceItems: number) {
    super(PIPE_OPTIONS);
  }

  /**
   * Route params stay strings: each goes through its own pipe (IdPipe), which names the value as
   * sent («abc»), not as Number() made it (NaN).
   */
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }

  /**
   * A long array marked `@ValidatedInSlices()` (a batch's 1,000 commands) is validated in slices that
   * let other requests run in between, with the same DTO or errors as one pass (validation-slices.ts);
   * built-in keys, surrogates and NULs are checked on the whole body first.
   *
   * An opaque object at the top level of a body (a report's `result`: a part of a refresh is a
   * megabyte of Jira's data) is kept out of class-transformer, which would copy it deeply only for
   * OpaqueJson to put the original back: an empty object stands in for it while the DTO is built and
   * validated (its own validators see an object, as they would), then the value itself is put back.
   * Built-in keys are checked on the whole body first, as always.
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await this.validated(value, metadata);
    } catch (err) {
      throw explained(err, metadata.metatype);
    }
  }

  private async validated(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // No query parameter of the API takes a list. A repeated one is named as repeated, not as a value of the
    // wrong kind («нужно целое число» for `?limit=1&limit=2`) — once the query with its first values passes,
    // so an unknown parameter given twice is still named as unknown.
    const repeated = metadata.type === 'query' ? repeatedParams(value) : [];
    if (repeated.length) {
      const query = value as Record<string, unknown>;
      await super.transform(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])), metadata);
      const list = repeated.map((field) => ({ field, detail: REPEATED_PARAM_DETAIL }));
      throw new ValidationFailedError(fieldsDetail(list), list);
    }
    const sliced = slicedProperty(metadata, value, this.sliceItems);
    if (sliced !== undefined) {
      sliceElapsed(); // the walks over the whole body count in the turn's slice
      this.stripProtoKeys(value);
      await pause();
      const { dto, errors } = await validateInSlices(this.passes, value as Record<string, unknown>, sliced, metadata, this.sliceItems);
      if (errors.length > 0) throw validationException(errors);
      return dto;
    }
    const keys = metadata.metatype ? OPAQUE_OF_CLASS.get(metadata.metatype) : undefined;
    const body = value as Record<string, unknown>;
    const heavy = keys && isPlainObject(value) ? [...keys].filter((k) => isPlainObject(body[k])) : [];
    if (heavy.length === 0) return super.transform(value, metadata);
    this.stripProtoKeys(value);
    const dto = (await super.transform({ ...body, ...Object.fromEntries(heavy.map((k) => [k, {}])) }, metadata)) as Record<string, unknown>;
    for (const k of heavy) dto[k] = body[k];
    return dto;
  }

  /**
   * Before any DTO is built: keys named like built-in members, and strings (values or keys) with a
   * lone UTF-16 surrogate — text that UTF-8, and so neither database, can hold (issue 21.8).
   */
  protected override stripProtoKeys(value: unknown): void {
    const errors = [
      ...checkBuiltInKeys(value).map((field) => ({ field, detail: UNKNOWN_FIELD_DETAIL })),
      ...illFormedStrings(value).map((field) => ({ field, detail: LONE_SURROGATE_DETAIL })),
      ...nulStrings(value).map((field) => ({ field, detail: NUL_DETAIL })),
    ];
    if (errors.length > 0) {
      throw new ValidationFailedError(fieldsDetail(errors), errors);
    }
  }
}

export const LONE_SURROGATE_DETAIL =
  'текст содержит одиночный суррогат UTF-16 (например \\udc00 без пары) — такой текст нельзя сохранить в UTF-8; проверьте кодировку, в которой он получен';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one global ValidationPipe; `sliceItems`: items per pass of an array validated in slices. */
export function createValidationPipe(sliceItems = SLICE_ITEMS): ValidationPipe {
  return new HubValidationPipe(sliceItems);
}
