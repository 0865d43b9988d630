import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Nest's own start-up lines: one per module and per route, every start. */
const NEST_STARTUP = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Nest's console logger, with Nest's start-up chatter (about 40 lines) moved from `info` to `debug`:
 * at the default level a start prints the hub's own lines (migrations, where it listens) and no more.
 */
export class HubLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    if (logLevel === 'log' && context !== undefined && NEST_STARTUP.has(context)) {
      if (!this.isLevelEnabled('debug')) return;
      logLevel = 'debug';
    }
    super.printMessages(messages, context, logLevel, writeStreamType, errorStack, params);
  }
}
