/** The import report in words: what a person reads, not the API's names. */
import { describe, expect, it } from '@jest/globals';
import { formatReport } from './report-text.js';

describe('formatReport', () => {
  it('asks to update the keys the mirror lacks in words, not by the command name', () => {
    const text = formatReport({ notes: 2, expected_links: [], missing_links: [], reversed_links: [], missing_keys: ['AURORA-99', 'AURORA-100'] });
    expect(text.split('\n')).toContain('Ключей нет в зеркале: AURORA-99, AURORA-100 (обновите эти задачи в зеркале)');
    expect(text).not.toMatch(/refresh/);
  });

  it('says «нет» when the mirror holds every key', () => {
    expect(formatReport({ notes: 0, expected_links: [], missing_links: [], reversed_links: [], missing_keys: [] }).split('\n')).toContain('Ключей нет в зеркале: нет');
  });
});
