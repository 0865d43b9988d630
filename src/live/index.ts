/** The live module's public surface: what other modules import of it. */
export { LiveModule } from './live.module.js';
