import { describe, expect, it, jest } from '@jest/globals';
import type { LogLevel } from '@nestjs/common';
import { HubLogger } from './hub-logger.js';

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

  it("prints Nest's start-up lines as DEBUG when debug is on", () => {
    const [line] = printed(['debug', 'log'], [['Mapped {/batches, POST} route', 'RouterExplorer']]);
    expect(line).toMatch(/DEBUG \[RouterExplorer\] Mapped \{\/batches, POST\} route/);
  });
});
