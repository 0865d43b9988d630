import { describe, expect, it } from '@jest/globals';
import { lineLimit, unreadableLineAnswer } from './stdio-lines.js';

/** What lineLimit(limit) passes on for these chunks, and the answers it gives. */
async function through(limit: number, chunks: string[]): Promise<{ passed: string[]; answers: number }> {
  let answers = 0;
  const guard = lineLimit(limit, () => answers++);
  const passed: string[] = [];
  guard.on('data', (chunk: Buffer) => passed.push(chunk.toString('utf8')));
  const ended = new Promise((resolve) => guard.once('end', resolve));
  for (const chunk of chunks) guard.write(Buffer.from(chunk));
  guard.end();
  await ended;
  return { passed, answers };
}

describe('lineLimit', () => {
  it.each<[string, number, string[], string[], number]>([
    ['lines in one chunk pass one by one', 5, ['ab\ncd\n'], ['ab\n', 'cd\n'], 0],
    ['a line split across chunks passes whole', 5, ['a', 'b', 'c\n'], ['abc\n'], 0],
    ['a line of exactly the limit passes', 3, ['abc\n'], ['abc\n'], 0],
    ['a line over the limit is dropped, answered once, and the next passes', 3, ['ab', 'cd', 'ef\n', 'x\n'], ['x\n'], 1],
    ['two long lines, two answers', 2, ['abc\ndef\ngh\n'], ['gh\n'], 2],
    ['a line without its newline is not passed on', 5, ['ab\ncd'], ['ab\n'], 0],
  ])('%s', async (_name, limit, chunks, passed, answers) => {
    expect(await through(limit, chunks)).toEqual({ passed, answers });
  });
});

describe('unreadableLineAnswer', () => {
  it('answers not JSON with -32700, JSON that is not a message with -32600, and nothing else', () => {
    const code = (error: unknown) => {
      const line = unreadableLineAnswer(error);
      return line === undefined ? undefined : (JSON.parse(line) as { error: { code: number } }).error.code;
    };
    expect(code(new SyntaxError('Unexpected end'))).toBe(-32700);
    expect(code(Object.assign(new Error('invalid'), { issues: [] }))).toBe(-32600);
    expect(code(new Error('EPIPE'))).toBeUndefined();
  });
});
