/**
 * A long array of nested DTOs validated in slices (issue 21, decision 1320). class-transformer and
 * class-validator build and check 1,000 commands in one synchronous call (several milliseconds, tens
 * under load), during which no other request runs. The global pipe (validation.ts) runs Nest's own
 * validation on bodies that each hold a slice of the array, letting the event loop in between them, and
 * puts together the same DTO, or the same errors, as one validation of the whole body:
 *
 * - **slice passes**: the body with the array cut to SLICE_ITEMS items (those that are arrays left out,
 *   as `undefined`, which nested validation skips); an error under the array's property names an item
 *   by its index in the slice, which becomes its index in the whole array;
 * - **the envelope pass**: the body with the whole array's length, its arrays and the first item a slice
 *   pass refused, every other item `undefined`. The array's own rules (`IsArray`, its size, `NoArraysAsCommands`)
 *   see the array as they would; the other properties are checked once; the refused item puts the array's
 *   error where class-validator puts it among the others. The slice passes' errors for the remaining items
 *   join its children, in index order.
 *
 * So the array's own rules may look at its length and at which items are arrays, not at what the other
 * items hold (`validation-slices.spec.ts` compares both ways on bodies of every kind of mistake).
 */
import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { pause } from './turns.js';

/** Items per slice pass: ~0.5 ms of validation on an idle machine. */
export const SLICE_ITEMS = 100;

/** The DTO properties marked `@ValidatedInSlices()`, by class. */
const SLICED = new Map<Function, string[]>(); // eslint-disable-line @typescript-eslint/no-unsafe-function-type

/**
 * An array of nested DTOs (`@ValidateNested({ each: true })` with `@Type`) that may be long: the pipe
 * validates it in slices, letting other requests run in between. Its own rules must judge the array by
 * its length and by which of its items are arrays only (see the file's comment).
 */
export function ValidatedInSlices(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    const owner = (target as { constructor: Function }).constructor; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
    SLICED.set(owner, [...(SLICED.get(owner) ?? []), String(key)]);
  };
}

/** The property of `value` to validate in slices: one marked on the DTO class and longer than a slice. */
export function slicedProperty(metadata: ArgumentMetadata, value: unknown, sliceItems = SLICE_ITEMS): string | undefined {
  const keys = metadata.metatype ? SLICED.get(metadata.metatype) : undefined;
  if (!keys || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return keys.find((k) => Array.isArray((value as Record<string, unknown>)[k]) && ((value as Record<string, unknown[]>)[k]).length > sliceItems);
}

/** What the passes' pipe throws instead of an HTTP error: class-validator's errors as they are. */
class Collected {
  constructor(readonly errors: ValidationError[]) {}
}

/**
 * Nest's ValidationPipe with the global pipe's options, answering class-validator's errors as they are.
 * Keys named like built-in members, lone surrogates and NULs are checked on the whole body before the
 * passes (validation.ts), so it checks none itself.
 */
class PassPipe extends ValidationPipe {
  protected override stripProtoKeys(): void {}
}

export function passPipe(options: ConstructorParameters<typeof ValidationPipe>[0]): ValidationPipe {
  return new PassPipe({ ...options, exceptionFactory: (errors) => new Collected(errors) });
}

async function pass(pipe: ValidationPipe, body: object, metadata: ArgumentMetadata): Promise<{ dto?: Record<string, unknown>; errors: ValidationError[] }> {
  try {
    return { dto: (await pipe.transform(body, metadata)) as Record<string, unknown>, errors: [] };
  } catch (err) {
    if (err instanceof Collected) return { errors: err.errors };
    throw err;
  }
}

/**
 * The DTO of `body`, or the errors of its validation, as one pass of `pipe` over the whole body would
 * answer them; `key` (an array longer than `sliceItems`) is validated `sliceItems` items at a time.
 */
export async function validateInSlices(
  pipe: ValidationPipe,
  body: Record<string, unknown>,
  key: string,
  metadata: ArgumentMetadata,
  sliceItems = SLICE_ITEMS,
): Promise<{ dto?: Record<string, unknown>; errors: ValidationError[] }> {
  const items = body[key] as unknown[];
  const built: unknown[] = new Array<unknown>(items.length);
  /** The slice passes' errors of the array's items, by index in the whole array. */
  const refused = new Map<number, ValidationError>();
  for (let start = 0; start < items.length; start += sliceItems) {
    const slice = items.slice(start, start + sliceItems).map((item) => (Array.isArray(item) ? undefined : item));
    const { dto, errors } = await pass(pipe, { ...body, [key]: slice }, metadata);
    if (dto) (dto[key] as unknown[]).forEach((item, i) => (built[start + i] = item));
    for (const child of errors.find((e) => e.property === key)?.children ?? []) {
      child.property = String(start + Number(child.property));
      refused.set(Number(child.property), child);
    }
    await pause();
  }
  const first = refused.size > 0 ? Math.min(...refused.keys()) : -1;
  const envelope = items.map((item, i) => (Array.isArray(item) || i === first ? item : undefined));
  const { dto, errors } = await pass(pipe, { ...body, [key]: envelope }, metadata);
  if (dto && refused.size === 0) {
    const own = dto[key] as unknown[];
    dto[key] = items.map((item, i) => (Array.isArray(item) ? own[i] : built[i]));
    return { dto, errors: [] };
  }
  // An item refused in its slice and accepted in the envelope cannot be: the whole body in one pass decides.
  if (errors.length === 0) return pass(pipe, body, metadata);
  const array = errors.find((e) => e.property === key);
  if (array) {
    const children = new Map((array.children ?? []).map((c) => [Number(c.property), c]));
    for (const [i, child] of refused) if (!children.has(i)) children.set(i, child);
    array.children = [...children].sort(([a], [b]) => a - b).map(([, c]) => c);
  }
  return { errors };
}
