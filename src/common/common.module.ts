import { DynamicModule, Global, Module } from '@nestjs/common';
import { AgentFirst } from './agent-first.js';
import { Clock } from './clock.js';
import { HUB_CONFIG, type HubConfig } from './config.js';

/** The typed configuration (read once at boot), the clock and the agent-first scheduling, for every module. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: HubConfig, clock: Clock = new Clock()): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: HUB_CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
        { provide: AgentFirst, useValue: new AgentFirst() },
      ],
      exports: [HUB_CONFIG, Clock, AgentFirst],
    };
  }
}
