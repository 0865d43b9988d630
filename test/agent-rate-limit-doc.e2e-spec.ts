/**
 * docs/agent-jira.md states the agent's rate-limit waits with the numbers the Jira client keeps
 * (RATE_LIMIT_DEFAULTS): the 5 s floor under Jira's hint, the jitter of hinted and unhinted waits, the
 * ceiling of one back-off wait and the budget per request, with worked examples computed here.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { RATE_LIMIT_DEFAULTS } from '@jira-hub/agent';

const guide = readFileSync(new URL('../docs/agent-jira.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const seconds = (ms: number) => String(Math.round(ms) / 1000).replace('.', ',');
const percent = (share: number) => `${Math.round(share * 100)} %`;

describe('docs/agent-jira.md on rate limits', () => {
  const { floorMs, ceilingMs, budgetMs, hintJitter, backoffJitter } = RATE_LIMIT_DEFAULTS;

  it('names the floor under Jira’s hint, and the jitter, ceiling and budget the client keeps', () => {
    expect(guide).toContain(`не меньше ${seconds(floorMs)} с`);
    expect(guide).toContain(`надбавка до ${percent(hintJitter)}`);
    expect(guide).toContain(`${seconds(floorMs)} с, ${seconds(2 * floorMs)} с, ${seconds(4 * floorMs)} с… (удваивая), с надбавкой до ${percent(backoffJitter)}, не больше ${ceilingMs / 60_000} мин`);
    expect(guide).toContain(`бюджет в ${budgetMs / 60_000} минут`);
    expect(guide).toContain(`не короче подсказки и не короче ${seconds(floorMs)} с`);
  });

  it.each([2, 60])('works the example of Retry-After: %i out as the client waits it', (hint) => {
    const low = Math.max(hint * 1000, floorMs);
    expect(guide).toContain(`\`Retry-After: ${hint}\` — ${hint === 2 ? 'пауза ' : ''}от ${seconds(low)} до ${seconds(low * (1 + hintJitter))} с`);
  });
});
