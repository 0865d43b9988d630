import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel as NestLogLevel } from '@nestjs/common';
import { ConfigError, type LogLevel } from './config.js';

/** Nest's levels printed at each HUB_LOG_LEVEL. */
export const NEST_LEVELS: Record<LogLevel, NestLogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
};

/** Nest's own start-up lines: one per module and per route, every start. */
const NEST_STARTUP = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** The one variable the log reads (coloursWanted), for the help of every command that logs through it. */
export const NO_COLOR_VARIABLE: [name: string, meaning: string] = ['NO_COLOR', 'журнал без цветов (без терминала цветов нет и так)'];

/**
 * ANSI colours only on a terminal: a log written to a file or a pipe keeps plain lines
 * (https://no-color.org: NO_COLOR set to anything non-empty turns them off on a terminal too).
 */
export function coloursWanted(env: NodeJS.ProcessEnv = process.env, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return stdout.isTTY === true && !env.NO_COLOR;
}

/**
 * Nest's console logger, with Nest's start-up chatter (about 40 lines) moved from `info` to `debug`:
 * at the default level a start prints the hub's own lines (migrations, where it listens) and no more.
 * Colours as `coloursWanted` decides unless the options say.
 */
export class HubLogger extends ConsoleLogger {
  constructor(options: ConsoleLoggerOptions = {}) {
    super({ ...options, colors: options.colors ?? coloursWanted() });
  }

  /** ISO 8601 in UTC (2026-12-02T03:48:02.123Z), not Nest's US-format local time: logs sort and compare. */
  protected override getTimestamp(): string {
    return new Date().toISOString();
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: NestLogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    // A refusal that stops the start (ConfigError: a database file that cannot serve, say) is printed once,
    // as one line, by whoever started the hub; Nest's ExceptionHandler would log it again with its stack.
    if (context === 'ExceptionHandler' && messages.length > 0 && messages.every((m) => m instanceof ConfigError)) return;
    if (logLevel === 'log' && context !== undefined && NEST_STARTUP.has(context)) {
      if (!this.isLevelEnabled('debug')) return;
      logLevel = 'debug';
    }
    super.printMessages(messages, context, logLevel, writeStreamType, errorStack, params);
  }
}
