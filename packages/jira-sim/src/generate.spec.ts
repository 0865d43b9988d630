import { describe, expect, it } from '@jest/globals';
import { generatedProject } from './generate.js';
import { generateFromEnv } from './main.js';
import { defaultSeed } from './seed.js';
import { JiraSimulator } from './simulator.js';

describe('generatedProject', () => {
  const base = defaultSeed('BIG');

  it('is the same for the same N, with about two distinct links per issue between existing issues', () => {
    const a = generatedProject(500, base);
    expect(generatedProject(500, base)).toEqual(a);
    expect(a.issues).toHaveLength(500);
    expect(a.links.length).toBeGreaterThan(900);
    const keys = new Set(Array.from({ length: 500 }, (_, i) => `BIG-${i + 1}`));
    for (const l of a.links) {
      expect(keys.has(l.source) && keys.has(l.target) && l.source !== l.target).toBe(true);
    }
    expect(new Set(a.links.map((l) => `${l.source} ${l.target} ${l.type}`)).size).toBe(a.links.length);
    expect(new Set(a.issues.map((i) => i.status))).toEqual(new Set(base.statuses));
  });

  it('seeds the simulator: keys 1..N, links on both ends', () => {
    const sim = new JiraSimulator({ projectKey: 'BIG', generate: 300 });
    expect(sim.store.issues.size).toBe(300);
    const link = sim.store.links[0]!;
    expect(sim.store.linksOf(link.sourceKey)).toContain(link);
    expect(sim.store.linksOf(link.targetKey)).toContain(link);
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['0', undefined],
    ['20000', 20000],
  ])('JIRA_SIM_GENERATE=%j → %j', (raw, n) => {
    expect(generateFromEnv({ JIRA_SIM_GENERATE: raw })).toBe(n);
  });

  it.each(['-1', '1.5', 'many'])('JIRA_SIM_GENERATE=%j is refused', (raw) => {
    expect(() => generateFromEnv({ JIRA_SIM_GENERATE: raw })).toThrow(/JIRA_SIM_GENERATE/);
  });
});
