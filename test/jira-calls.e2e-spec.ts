/** The bench's Jira-calls figure as a test (issue 20): over a batch of 100 commands no type above 1.25 × its minimum. */
import { describe, expect, it } from '@jest/globals';
import { measureJiraCalls } from '../bench/jira-calls.js';

describe('Jira calls per command type, against the minimum each needs', () => {
  it.each(['cloud', 'dc'] as const)('%s: every type within 1.25 × its minimum over 100 commands', async (flavor) => {
    const rows = await measureJiraCalls(flavor);
    expect(rows.reduce((n, r) => n + r.commands, 0)).toBe(100);
    expect(rows.filter((r) => r.ratio > 1.25)).toEqual([]);
  });
});
