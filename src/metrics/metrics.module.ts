import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { Meter } from './meter.js';

/**
 * GET /metrics and the Meter. Global, and depending on nothing: the queue and the database count at
 * the source through the Meter, and the queue registers its scrape-time gauge on it.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Meter],
  exports: [Meter],
})
export class MetricsModule {}
