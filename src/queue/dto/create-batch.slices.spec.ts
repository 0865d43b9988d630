/**
 * A batch body validated in slices (common/validation-slices.ts, decision 1320) answers exactly what one
 * pass over the whole body answers: the same DTO, or the same 422 body byte for byte. The global pipe
 * with slices of 3 items is compared with the same pipe validating the whole array at once, on bodies
 * with every kind of mistake a command list can hold, at the start, the middle and the end of the array
 * and across slice borders.
 */
import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { createValidationPipe, errorBody } from '../../common/index.js';
import { CreateBatchDto } from './create-batch.dto.js';

const whole = createValidationPipe(Number.MAX_SAFE_INTEGER);
const sliced = createValidationPipe(3);
const metadata = { type: 'body' as const, metatype: CreateBatchDto };

/** The DTO as JSON with the class of every command, or the answer's body; each pipe gets its own parse of the text. */
async function outcome(pipe: ReturnType<typeof createValidationPipe>, text: string): Promise<string> {
  try {
    const dto = (await pipe.transform(JSON.parse(text), metadata)) as CreateBatchDto;
    const classes = Array.isArray(dto.commands) ? dto.commands.map((c) => (c as object | null)?.constructor?.name ?? String(c)) : [];
    return `${dto.constructor.name} ${JSON.stringify(dto)} ${classes.join()}`;
  } catch (err) {
    return `error ${JSON.stringify(errorBody(err as never))}`;
  }
}

const fields = (n: number) => ({ type: 'ensure_fields', params: { key: `A-${n}`, duedate: '2026-12-01' } });
const valid = (n: number) => Array.from({ length: n }, (_, i) => fields(i + 1));
/** `n` valid commands with `bad` put at the given indexes. */
const withAt = (n: number, bad: Record<number, unknown>) => valid(n).map((c, i) => (i in bad ? bad[i] : c));

const CASES: [string, unknown][] = [
  ['all valid', { title: 'ok', commands: valid(10) }],
  ['all valid, with author and checks', { title: 'ok', author: 'ivanov', checks: 'warn', commands: valid(7) }],
  ['an unknown type', { title: 't', commands: withAt(10, { 4: { type: 'nope', params: {} } }) }],
  ['params missing, not an object, null', { title: 't', commands: withAt(10, { 0: { type: 'ensure_fields' }, 5: { type: 'ensure_fields', params: 'x' }, 9: { type: 'refresh', params: null } }) }],
  ['an unknown field in a command', { title: 't', commands: withAt(8, { 2: { ...fields(3), extra: 1 }, 3: { ...fields(4), more: true } }) }],
  ['a command that is an array', { title: 't', commands: withAt(10, { 3: [] }) }],
  ['commands that are arrays of commands and of junk', { title: 't', commands: withAt(11, { 1: [fields(1), { type: 'x' }], 7: [[1]], 10: ['s'] }) }],
  ['commands that are strings, numbers, null, true', { title: 't', commands: withAt(10, { 0: 'x', 2: 7, 6: null, 8: true }) }],
  ['a bad title and bad commands', { title: '', commands: withAt(9, { 5: { type: 1, params: [] } }) }],
  ['no title, an unknown top-level field, bad checks', { commands: withAt(9, { 8: {} }), extra: 'x', checks: 'maybe' }],
  ['a bad author only', { title: 't', author: 5, commands: valid(9) }],
  ['more commands than allowed', { title: 't', commands: withAt(1001, { 500: { type: 'nope', params: {} }, 1000: [] }) }],
  ['more commands than allowed, all valid', { title: 't', commands: valid(1001) }],
  ['mistakes everywhere', { title: ' ', commands: withAt(13, { 0: [], 1: { type: 'nope' }, 2: 'x', 4: { params: {} }, 6: { ...fields(7), a: 1 }, 9: null, 12: [fields(1)] }) }],
];

describe('a batch body validated in slices answers as one pass over it', () => {
  it.each(CASES)('%s', async (_name, body) => {
    const text = JSON.stringify(body);
    const expected = await outcome(whole, text);
    expect(await outcome(sliced, text)).toBe(expected);
  });

  it('the global pipe validates 1,000 commands in slices and answers the same', async () => {
    const body = JSON.stringify({ title: 't', commands: withAt(1000, { 0: { type: 'nope', params: {} }, 499: [], 999: { ...fields(1), x: 1 } }) });
    expect(await outcome(createValidationPipe(), body)).toBe(await outcome(whole, body));
  });
});
