import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DuplicateSummaryError, FieldError, ValidationFailedError } from './errors.js';

/** class-validator constraint name of the duplicate-summary rule (SPEC 5); its failure is answered as `duplicate_summary`. */
export const DUPLICATE_SUMMARY = 'noDuplicateSummaries';

const number = (message: string) => /(-?\d+(?:\.\d+)?)\s*(?:characters|elements)?\s*$/.exec(message)?.[1] ?? '';
const after = (message: string, marker: string) => message.slice(message.indexOf(marker) + marker.length).trim();

/**
 * Russian texts for class-validator's built-in constraints (SPEC 12: texts for people are Russian).
 * Our own constraints already speak Russian and pass through.
 */
const RUSSIAN: Record<string, (english: string) => string> = {
  whitelistValidation: () => 'неизвестное поле',
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

function flatten(errors: ValidationError[], prefix = ''): (FieldError & { constraint: string })[] {
  const out: (FieldError & { constraint: string })[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const [constraint, message] of Object.entries(e.constraints ?? {})) out.push({ field, detail: russian(constraint, message), constraint });
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
  const detail = list.length ? list.map((e) => `${e.field}: ${e.detail}`).join('; ') : 'запрос не прошёл проверку';
  return new ValidationFailedError(detail, list);
}

/**
 * Keys no body of this API has, at any depth: the members of `Object.prototype` (`__proto__`,
 * `constructor`, `toString`, …) and `prototype`. Nest's pipe deletes three of them silently and
 * class-transformer drops the rest (the instance already has them), so they would vanish instead of
 * being refused as unknown fields.
 */
const BUILT_IN_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Paths (`commands.0.params.constructor`) of every own key named like a built-in member, in a parsed body. */
export function builtInKeyPaths(value: unknown): string[] {
  const paths: string[] = [];
  const seen = new WeakSet<object>();
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    for (const key of Object.keys(current)) {
      const at = path ? `${path}.${key}` : key;
      if (BUILT_IN_KEYS.has(key)) paths.push(at);
      else stack.push([(current as Record<string, unknown>)[key], at]);
    }
  }
  return paths.sort();
}

/**
 * Refuses (422) a body with a key named like a built-in member instead of dropping the key silently:
 * an unknown field is an error (SPEC 4, 11.1), and class-transformer cannot be given such a key (it
 * takes an own `constructor` for the value's class).
 */
class HubValidationPipe extends ValidationPipe {
  protected override stripProtoKeys(value: unknown): void {
    const paths = builtInKeyPaths(value);
    if (paths.length > 0) {
      const errors = paths.map((field) => ({ field, detail: 'неизвестное поле' }));
      throw new ValidationFailedError(errors.map((e) => `${e.field}: ${e.detail}`).join('; '), errors);
    }
    super.stripProtoKeys(value);
  }
}

/** The one global ValidationPipe. */
export function createValidationPipe(): ValidationPipe {
  return new HubValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    errorHttpStatusCode: 422,
    exceptionFactory: validationException,
    validationError: { target: false, value: false },
  });
}
