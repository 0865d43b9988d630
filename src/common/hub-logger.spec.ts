import { describe, expect, it, jest } from '@jest/globals';
import type { LogLevel } from '@nestjs/common';
import { ConfigError } from './config.js';
import { coloursWanted, HubLogger } from './hub-logger.js';

/** What the logger writes for each (message, context), at the given levels. */
function printed(levels: LogLevel[], lines: [string, string][]): string[] {
  const out: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk).replace(/\x1b\[[0-9;]*m/g, ''));
    return true;
  });
  try {
    const logger = new HubLogger({ logLevels: levels });
    for (const [message, context] of lines) logger.log(message, context);
  } finally {
    write.mockRestore();
  }
  return out;
}

describe('HubLogger', () => {
  it.each([
    [['log'], 'RouterExplorer', 0],
    [['log'], 'InstanceLoader', 0],
    [['log'], 'NestFactory', 0],
    [['log'], 'Migrations', 1],
    [['log'], 'Queue', 1],
    [['debug', 'log'], 'RouterExplorer', 1],
  ] as [LogLevel[], string, number][])('at %j, a log line of %s is printed %i time(s)', (levels, context, times) => {
    expect(printed(levels, [['hello', context]]).filter((l) => l.includes('hello'))).toHaveLength(times);
  });

  it('stamps lines with an ISO time in UTC', () => {
    const [line] = printed(['log'], [['hello', 'Queue']]);
    expect(line).toMatch(/ \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z /);
    expect(line).not.toMatch(/[AP]M/);
  });

  it("prints Nest's start-up lines as DEBUG when debug is on", () => {
    const [line] = printed(['debug', 'log'], [['Mapped {/batches, POST} route', 'RouterExplorer']]);
    expect(line).toMatch(/DEBUG \[RouterExplorer\] Mapped \{\/batches, POST\} route/);
  });

  it.each([
    ['a refusal (ConfigError)', 'ExceptionHandler', 0, new ConfigError('база данных /x: на диске не осталось места')],
    ['any other error', 'ExceptionHandler', 1, new Error('boom')],
    ['a refusal', 'Queue', 1, new ConfigError('нет')],
  ])('%s logged in the context %s is printed %i time(s): whoever started the hub prints a refusal that stops the start', (_what, context, times, error) => {
    const out: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0);
    try {
      new HubLogger({ logLevels: ['error'], colors: false }).error(error, context);
    } finally {
      write.mockRestore();
    }
    expect(out.filter((l) => l.includes(error.message))).toHaveLength(times);
  });

  it.each([
    [{}, true, true],
    [{}, false, false],
    [{}, undefined, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
  ])('colours with env %j and stdout.isTTY %p: %p', (env, isTTY, expected) => {
    expect(coloursWanted(env, { isTTY })).toBe(expected);
  });

  it.each([
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, {}, true],
  ])('a line written with stdout a TTY %p and env %j has ANSI colours: %p', (isTTY, env, coloured) => {
    const raw: string[] = [];
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    const noColor = process.env.NO_COLOR;
    Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
    if ('NO_COLOR' in env) process.env.NO_COLOR = (env as { NO_COLOR: string }).NO_COLOR;
    else delete process.env.NO_COLOR;
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      raw.push(String(chunk));
      return true;
    });
    try {
      new HubLogger({ logLevels: ['log'] }).log('hello', 'Queue');
    } finally {
      write.mockRestore();
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
      if (noColor === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = noColor;
    }
    expect(raw.join('')).toContain('hello');
    expect(/\x1b\[/.test(raw.join(''))).toBe(coloured);
  });
});
