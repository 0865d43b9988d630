import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from './clock.js';
import { HUB_CONFIG, type HubConfig } from './config.js';

/** The typed configuration (read once at boot) and the clock, for every module. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: HubConfig, clock: Clock = new Clock()): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: HUB_CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
      ],
      exports: [HUB_CONFIG, Clock],
    };
  }
}
