/**
 * prom-client's metric classes, each from its own file. Its index also loads the default process
 * metrics and, with them, @opentelemetry/api: some 80 modules and several MB at the hub's start
 * (issue 9) for series that are only read when /metrics is scraped. Those load on the first scrape
 * (`collectDefaultMetrics`, meter.ts). The classes are prom-client's own: the same as its index exports.
 */
import Counter from 'prom-client/lib/counter.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';

export { Counter, Gauge, Histogram, Registry };

/** The Content-Type of the text format (the index's `prometheusContentType`). */
export const prometheusContentType = Registry.PROMETHEUS_CONTENT_TYPE;

/** prom-client's collectDefaultMetrics, loaded now. */
export async function loadCollectDefaultMetrics(): Promise<(typeof import('prom-client'))['collectDefaultMetrics']> {
  return (await import('prom-client/lib/defaultMetrics.js')).default;
}
