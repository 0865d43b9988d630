/**
 * zod's problems as Russian a model (and a person) reads at once: «не больше 100», «ожидалось число,
 * получена строка», «неизвестный аргумент idempotencyKey; известные: title, commands, …». A schema's
 * own message wins over these; what is not covered here falls back to zod's Russian locale.
 */
import { z } from 'zod';
import { plural } from '@jira-hub/contracts/russian';
import { cutToCharacters } from '../common/index.js';

const RU = z.locales.ru().localeError;

const TYPE_NAMES: Record<string, string> = {
  string: 'строка',
  number: 'число',
  int: 'целое число',
  bigint: 'целое число',
  boolean: 'true или false',
  object: 'объект',
  array: 'массив',
  null: 'null',
  undefined: 'ничего',
};

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'массив';
  if (typeof v === 'number' && !Number.isFinite(v)) return 'не число';
  return TYPE_NAMES[typeof v] ?? typeof v;
}

/** A value or a name in a refusal: a longer one than 60 UTF-16 units is cut to 57 characters (never inside an emoji) and an ellipsis. */
const short = (s: string): string => (s.length > 60 ? `${cutToCharacters(s, 57)}…` : s);

const show = (v: unknown): string => short(typeof v === 'string' ? `«${v}»` : JSON.stringify(v));

/** How many unknown argument names a refusal repeats. */
const KEYS_SHOWN = 20;

/** The names an object schema knows (a strict object's shape), for «известные: …». */
function knownKeys(inst: unknown): string[] {
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, unknown> } } })?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

/** The contextual error map for safeParse: `schema.safeParse(x, { error: russian })`. */
export const russian: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'обязательный аргумент не передан';
      return `ожидалось: ${TYPE_NAMES[issue.expected] ?? issue.expected}, а передано: ${typeOf(issue.input)}`;
    case 'too_big': {
      const max = issue.maximum;
      const orLess = issue.inclusive === false ? 'меньше' : 'не больше';
      if (issue.origin === 'string') return `не длиннее ${max} ${plural(max, 'символа', 'символов', 'символов')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${orLess} ${max} ${plural(max, 'элемента', 'элементов', 'элементов')}`;
      return `${orLess} ${max}`;
    }
    case 'too_small': {
      const min = issue.minimum;
      const orMore = issue.inclusive === false ? 'больше' : 'не меньше';
      if (issue.origin === 'string') return Number(min) === 1 ? 'не может быть пустой строкой' : `не короче ${min} ${plural(min, 'символа', 'символов', 'символов')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return Number(min) === 1 ? 'нужен хотя бы один элемент' : `${orMore} ${min} ${plural(min, 'элемента', 'элементов', 'элементов')}`;
      return `${orMore} ${min}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `ожидалось ${show(issue.values[0])}` : `одно из: ${issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
    case 'unrecognized_keys': {
      const known = knownKeys(issue.inst);
      const shown = issue.keys.slice(0, KEYS_SHOWN).map(short);
      const names = `${shown.join(', ')}${issue.keys.length > KEYS_SHOWN ? ` и ещё ${issue.keys.length - KEYS_SHOWN}` : ''}`;
      const which = issue.keys.length === 1 ? `неизвестный аргумент ${names}` : `неизвестные аргументы ${names}`;
      return known.length ? `${which}; известные: ${known.join(', ')}` : `${which}; аргументов здесь нет`;
    }
    case 'not_multiple_of':
      return `должно быть кратно ${issue.divisor}`;
    case 'invalid_format':
      if (issue.format === 'regex') return 'не подходит по формату';
      return `неверный формат (${issue.format})`;
    default:
      return RU(issue);
  }
};

/**
 * zod's issues in Russian, one per argument (`commands.0.params.summary: …`), each naming it once: a
 * schema's own message names no argument. An argument with several problems gets the first, and zod's
 * implicit bound of an integer (Number.MAX_SAFE_INTEGER) only when the schema sets none of its own.
 */
export function argumentErrors(error: z.ZodError): string[] {
  const byPath = new Map<string, z.core.$ZodIssue[]>();
  for (const issue of error.issues) {
    const where = issue.path.length ? issue.path.join('.') : 'аргументы';
    const same = byPath.get(where);
    if (same) same.push(issue);
    else byPath.set(where, [issue]);
  }
  return [...byPath].map(([where, issues]) => {
    const own = issues.filter((i) => !(i.code === 'too_big' && Number(i.maximum) === Number.MAX_SAFE_INTEGER));
    return `${where}: ${(own[0] ?? issues[0]).message}`;
  });
}
