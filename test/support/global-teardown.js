import { rmSync } from 'node:fs';

export default function globalTeardown() {
  if (process.env.HUB_TEST_TEMPLATES) rmSync(process.env.HUB_TEST_TEMPLATES, { recursive: true, force: true });
}
