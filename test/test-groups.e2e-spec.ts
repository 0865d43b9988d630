/**
 * The groups `npm test` runs the suite in (test/support/groups.js, decision record 1403): every spec
 * file runs exactly once, and a member that would leak a hook into its group is refused.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupCount, groups, ROOT, RUN_ALONE, specFiles, topLevelCall } from './support/groups.js';

describe('the suite in groups', () => {
  it('puts every spec file in exactly one group, or runs it alone', () => {
    const all = specFiles();
    const grouped = groups().flat();
    expect(all).toContain('test/test-groups.e2e-spec.ts');
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped, ...RUN_ALONE].sort()).toEqual(all);
  });

  it('shares the files out the same way each time, with no empty group', () => {
    expect(groupCount()).toBeGreaterThan(1);
    const once = groups();
    expect(groups()).toEqual(once);
    for (const members of once) expect(members.length).toBeGreaterThan(0);
  });

  it('finds no hook or test at the top level of any member', () => {
    const offenders = groups()
      .flat()
      .filter((path) => topLevelCall(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it.each([
    ['beforeEach(() => reset());', 'beforeEach('],
    ['afterAll(async () => close());', 'afterAll('],
    ["it('runs', () => undefined);", 'it('],
    ["test.each([1])('runs %i', () => undefined);", 'test.each('],
  ])('refuses a planted top-level call: %s', (line, found) => {
    expect(topLevelCall(`import x from 'y';\n\n${line}\n`)).toBe(found);
  });

  it('lets hooks and tests inside a describe block through', () => {
    expect(topLevelCall("describe('a', () => {\n  beforeEach(() => reset());\n  it('runs', () => undefined);\n});\n")).toBeUndefined();
  });
});
