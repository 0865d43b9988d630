// `node --import ./test/support/ts-register.mjs src/….ts`: see ts-hooks.mjs.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
