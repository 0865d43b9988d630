// One share of the suite, run in one module registry by `npm test` (test/support/groups.js).
import { importGroup } from '../support/groups.js';

await importGroup(import.meta.url);
