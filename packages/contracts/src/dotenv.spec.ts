import { describe, expect, it } from '@jest/globals';
import { parseEnv } from 'node:util';
import { dotEnvProblem, dotEnvRefusal } from './dotenv.js';

describe('dotEnvProblem: the first line of a .env that is neither NAME=value, a comment nor blank', () => {
  it.each([
    ['HUB_PORT=3000\nHUB_HOST=127.0.0.1\n', undefined],
    ['\uFEFF# comment\n\n  # indented comment\nexport HUB_PORT=3000\r\nHUB_LOG_LEVEL = debug\n', undefined],
    ['HUB_CLIENT_TOKEN="a\nb"\nHUB_AGENT_TOKEN=x\n', undefined],
    ["A='one line'\nB=`two\nlines`\nC=3", undefined],
    ['HUB_PORT=3000\nthis is garbage\nHUB_CLIENT_TOKEN=secret\n', { line: 2, text: 'this is garbage' }],
    ['HUB_PORT 3000\n', { line: 1, text: 'HUB_PORT 3000' }],
    ['1ABC=x\n', { line: 1, text: '1ABC=x' }],
    ['A="open\nstill open\n"\n=novalue\n', { line: 4, text: '=novalue' }],
  ])('%j → %j', (text, problem) => {
    expect(dotEnvProblem(text)).toEqual(problem);
  });

  it('agrees with Node: a line it reports is one after which Node loses the next variable, and a file it passes loses none', () => {
    const lost = (text: string) => parseEnv(text) as Record<string, string>;
    expect(lost('A=1\ngarbage\nB=2\n').B).toBeUndefined();
    expect(dotEnvProblem('A=1\ngarbage\nB=2\n')).toEqual({ line: 2, text: 'garbage' });
    expect(lost('A=1\nexport B=2\n# c\nC="x\ny"\nD=4\n')).toMatchObject({ A: '1', B: '2', C: 'x\ny', D: '4' });
    expect(dotEnvProblem('A=1\nexport B=2\n# c\nC="x\ny"\nD=4\n')).toBeUndefined();
  });
});

describe('dotEnvRefusal', () => {
  it('names the file, the line and its text (cut), or nothing for a good file', () => {
    expect(dotEnvRefusal('/srv/hub/.env', 'A=1\n# ok\n')).toBeUndefined();
    expect(dotEnvRefusal('/srv/hub/.env', `A=1\n${'x'.repeat(80)}\n`)).toBe(
      `/srv/hub/.env, строка 2: «${'x'.repeat(60)}…» — не «ИМЯ=значение» и не комментарий (#): она и переменные после неё не были бы прочитаны; исправьте строку`,
    );
  });
});
