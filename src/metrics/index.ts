/** The metrics module's public surface: what other modules import of it. */
export { Meter } from './meter.js';
export { MetricsModule } from './metrics.module.js';
