/**
 * Jira calls per command type (issue 20): the reference agent runs a batch of 100 commands against the
 * simulator, one JiraClient for the whole batch as in a real run (so what it caches — fields, link types,
 * boards, sprints, the project — is read once), and each type's calls per command are set beside the
 * fewest requests Jira needs for that command. Target: no type above 1.25 × its minimum.
 */
import { executeCommand, JiraClient, MemoryJournal, type JiraFlavor } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';

/**
 * The fewest Jira requests each command of the batch needs, with why. Reads that decide whether anything is
 * to be done are part of the minimum (the commands are idempotent: they read before they write).
 */
export const MINIMUM_CALLS: Record<string, { calls: number; why: string }> = {
  ensure_issue: { calls: 2, why: 'duplicate search + POST /issue' },
  ensure_fields: { calls: 2, why: 'GET /issue + PUT /issue' },
  ensure_status: { calls: 3, why: 'GET /issue + GET and POST …/transitions (one step)' },
  ensure_link: { calls: 2, why: 'GET /issue (its links) + POST /issueLink' },
  ensure_sprint: { calls: 2, why: 'GET /issue (sub-task?) + POST /sprint/{id}/issue' },
  ensure_comment: { calls: 2, why: 'GET …/comment + POST …/comment' },
  refresh: { calls: 1, why: 'up to 100 keys: one bulk fetch (Cloud) or search (DC), links in the same answer' },
};

export interface JiraCallsRow {
  type: string;
  commands: number;
  calls: number;
  perCommand: number;
  minimum: number;
  ratio: number;
}

/** The batch: 100 commands of every type over the seed's issues, run in order; calls counted per type. */
export async function measureJiraCalls(flavor: JiraFlavor = 'cloud'): Promise<JiraCallsRow[]> {
  const sim = new JiraSimulator({ generate: 300 });
  const url = await sim.start();
  try {
    const client = new JiraClient({ baseUrl: url, flavor, auth: flavor === 'cloud' ? { kind: 'basic', email: 'bot@example.com', apiToken: 'token' } : { kind: 'bearer', token: 'pat' }, sleep: async () => undefined });
    const ctx = { client, project: 'AURORA', journal: new MemoryJournal(), customFields: ['Story Points'], createRecheckDelaysMs: [] };
    const todo = sim.listIssues().filter((i) => i.issueType === 'Task' && i.status === 'To Do').map((i) => i.key);
    const key = (i: number) => todo[i % todo.length]!;
    const commands: Array<{ type: string; params: Record<string, unknown> }> = [];
    for (let i = 0; i < 15; i++) commands.push({ type: 'ensure_issue', params: { temp_key: `new:${i + 1}`, issue_type: 'Task', summary: `Замер: задача ${i + 1}` } });
    for (let i = 0; i < 20; i++) commands.push({ type: 'ensure_fields', params: { key: key(i), duedate: `2026-12-${String((i % 28) + 1).padStart(2, '0')}`, 'Story Points': i } });
    for (let i = 0; i < 15; i++) commands.push({ type: 'ensure_status', params: { key: key(20 + i), path: ['In Progress'] } });
    for (let i = 0; i < 15; i++) commands.push({ type: 'ensure_link', params: { source: key(40 + i), target: key(60 + i), link_type: 'Relates' } });
    for (let i = 0; i < 10; i++) commands.push({ type: 'ensure_sprint', params: { key: key(80 + i), sprint: i % 2 ? 'Спринт 1' : 'Спринт 2' } });
    for (let i = 0; i < 15; i++) commands.push({ type: 'ensure_comment', params: { key: key(i), body: `Замер ${i}`, marker: `[hub:bench-${i}]` } });
    for (let i = 0; i < 10; i++) commands.push({ type: 'refresh', params: { keys: [key(i), key(i + 1), key(i + 2)] } });

    const byType = new Map<string, { commands: number; calls: number }>();
    let id = 1;
    for (const command of commands) {
      const before = client.jiraCalls;
      const outcome = await executeCommand({ id: id++, ...command }, ctx);
      if (outcome.status !== 'done') throw new Error(`${command.type} ${JSON.stringify(command.params)} failed: ${outcome.error}`);
      const row = byType.get(command.type) ?? { commands: 0, calls: 0 };
      row.commands++;
      row.calls += client.jiraCalls - before;
      byType.set(command.type, row);
    }
    return [...byType].map(([type, { commands: n, calls }]) => {
      const minimum = MINIMUM_CALLS[type]!.calls;
      return { type, commands: n, calls, perCommand: calls / n, minimum, ratio: calls / n / minimum };
    });
  } finally {
    await sim.stop();
  }
}

/** The bench section: one line per command type and flavor, each against its target. */
export async function jiraCallsBench(report: (name: string, value: number, unit: string, ok: boolean, target: string) => void): Promise<void> {
  for (const flavor of ['cloud', 'dc'] as const) {
    const rows = await measureJiraCalls(flavor);
    for (const row of rows) {
      console.log(`     ${flavor} ${row.type}: ${row.calls} Jira calls for ${row.commands} commands, ${row.perCommand.toFixed(2)} per command; minimum ${row.minimum} (${MINIMUM_CALLS[row.type]!.why})`);
      report(`Jira calls per ${row.type} (${flavor}), against its minimum`, row.ratio, '× minimum', row.ratio <= 1.25, '<= 1.25 ×');
    }
  }
}
