import { describe, expect, it } from '@jest/globals';
import { findingsCutText, listFindings, MAX_LISTED_FINDINGS } from './listed-findings.js';

describe('listFindings', () => {
  const at = (file: string, row: number, code = 'x') => ({ file, row, code });

  it('lists the first MAX_LISTED_FINDINGS in file and row order, counting them all', () => {
    const findings = [at('links.csv', 2), ...Array.from({ length: 1_500 }, (_, i) => at('issues.csv', 1_501 - i))];
    const listed = listFindings(findings);
    expect(listed.findings_total).toBe(1_501);
    expect(listed.findings).toHaveLength(MAX_LISTED_FINDINGS);
    expect(listed.findings[0]).toEqual(at('issues.csv', 2));
    expect(listed.findings.at(-1)).toEqual(at('issues.csv', 1_001));
  });

  it('keeps a row\'s findings in the order found, and lists all when within the cap', () => {
    const findings = [at('notes.csv', 2), at('issues.csv', 3, 'b'), at('issues.csv', 3, 'a'), at('links.csv', 2)];
    expect(listFindings(findings)).toEqual({ findings: [at('issues.csv', 3, 'b'), at('issues.csv', 3, 'a'), at('links.csv', 2), at('notes.csv', 2)], findings_total: 4 });
    expect(listFindings([])).toEqual({ findings: [], findings_total: 0 });
  });
});

describe('findingsCutText', () => {
  it('says how many of how many, and nothing when none is left out', () => {
    expect(findingsCutText(1000, 1201)).toBe('показаны первые 1000 из 1201 замечания');
    expect(findingsCutText(1000, 33000)).toBe('показаны первые 1000 из 33000 замечаний');
    expect(findingsCutText(3, 3)).toBe('');
  });
});
