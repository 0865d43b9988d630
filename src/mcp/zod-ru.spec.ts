import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { illFormedStrings } from '../common/index.js';
import { argumentErrors, russian } from './zod-ru.js';

/** The Russian refusal of `value` by `schema`, as the tools answer it. */
const refusal = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value, { error: russian, reportInput: false });
  if (parsed.success) throw new Error('accepted');
  return argumentErrors(parsed.error).join('; ');
};

describe('the refusals name long names and values cut between characters', () => {
  // An emoji whose two UTF-16 units are the 57th and 58th of the text as shown (the key as is; a value in «»).
  const emojiAt57 = (before: number) => `${'a'.repeat(before)}😀${'b'.repeat(20)}`;

  it.each<[string, z.ZodType, unknown]>([
    ['an unknown argument', z.object({ key: z.string() }).strict(), { key: 'A-1', [emojiAt57(56)]: 1 }],
    ['the one allowed value, named by the refusal', z.object({ mode: z.literal(emojiAt57(55)) }), { mode: 'x' }],
  ])('%s: no half an emoji, an ellipsis after the cut', (_what, schema, value) => {
    const text = refusal(schema, value);
    expect(illFormedStrings(text)).toEqual([]);
    expect(text).toContain('😀…');
  });
});
