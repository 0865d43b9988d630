// prom-client's own files (src/metrics/prom.ts imports them one by one) ship no types of their own:
// each exports (module.exports) one thing of the package's index, typed here as the index types it.
declare module 'prom-client/lib/registry.js' {
  export { Registry as default } from 'prom-client';
}
declare module 'prom-client/lib/counter.js' {
  export { Counter as default } from 'prom-client';
}
declare module 'prom-client/lib/gauge.js' {
  export { Gauge as default } from 'prom-client';
}
declare module 'prom-client/lib/histogram.js' {
  export { Histogram as default } from 'prom-client';
}
declare module 'prom-client/lib/defaultMetrics.js' {
  export { collectDefaultMetrics as default } from 'prom-client';
}
