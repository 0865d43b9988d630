/**
 * A generated project of N issues for tests and benchmarks at scale (JIRA_SIM_GENERATE=N): deterministic
 * (the same N gives the same issues and links), Russian and English summaries, statuses, assignees,
 * labels, sprints, and about two links per issue.
 */
import type { SimSeed, SimSeedIssue, SimSeedLink } from './types.js';

const WORDS_RU = ['отчёт', 'продажи', 'склад', 'интеграция', 'платёж', 'клиент', 'договор', 'миграция', 'доступ', 'ошибка', 'выгрузка', 'сверка'];
const WORDS_EN = ['report', 'export', 'billing', 'sync', 'login', 'invoice', 'search', 'cache', 'backup', 'audit', 'api', 'mobile'];
const LABELS = ['backend', 'frontend', 'finance', 'ops', 'security', 'data'];
const LINK_TYPES = ['Blocks', 'Relates', 'Duplicate'];

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The issues and links of a generated project in `base` (its key, statuses, users, sprints). Issue i is `<KEY>-i`. */
export function generatedProject(n: number, base: Pick<SimSeed, 'projects' | 'statuses' | 'users' | 'sprints'>): Pick<SimSeed, 'issues' | 'links'> {
  const next = random(n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const key = base.projects[0]!.key;
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const issues: SimSeedIssue[] = [];
  for (let i = 1; i <= n; i++) {
    const words = i % 2 ? [pick(WORDS_RU), pick(WORDS_RU), pick(WORDS_EN)] : [pick(WORDS_EN), pick(WORDS_EN), pick(WORDS_RU)];
    issues.push({
      summary: `${words.join(' ')} ${i}`,
      issueType: i % 10 === 0 ? 'Bug' : 'Task',
      status: pick(base.statuses),
      assignee: next() < 0.8 ? pick(base.users).accountId : null,
      labels: next() < 0.7 ? [pick(LABELS)] : [],
      sprintIds: base.sprints.length > 0 && next() < 0.6 ? [pick(base.sprints).id] : [],
      createdAtMs: start + i * 1000,
    });
  }
  const links: SimSeedLink[] = [];
  const seen = new Set<string>();
  for (let i = 1; i <= n && n > 1; i++) {
    for (let j = 0; j < 2; j++) {
      const other = 1 + Math.floor(next() * n);
      const type = pick(LINK_TYPES);
      const id = `${i}-${other}-${type}`;
      if (other === i || seen.has(id)) continue;
      seen.add(id);
      links.push({ source: `${key}-${i}`, target: `${key}-${other}`, type });
    }
  }
  return { issues, links };
}
