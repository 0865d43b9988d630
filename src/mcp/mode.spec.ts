import { describe, expect, it } from '@jest/globals';
import { mcpModeText } from './mode.js';

describe('mcpModeText (the start banners, a text for people)', () => {
  it.each([
    [false, undefined, 'все инструменты'],
    [false, ['read', 'notes'], 'инструменты read, notes (HUB_MCP_TOOLS)'],
    [true, undefined, 'только чтение (HUB_MCP_READ_ONLY): все инструменты, кроме пишущих'],
  ])('read-only %p, tools %j: %s', (readOnly, tools, text) => {
    expect(mcpModeText(readOnly, tools)).toBe(text);
  });

  it('names what set read-only mode: the variable or the flag of jira-hub mcp', () => {
    expect(mcpModeText(true, ['read'], 'variable')).toBe('только чтение (HUB_MCP_READ_ONLY): инструменты read (HUB_MCP_TOOLS), кроме пишущих');
    expect(mcpModeText(true, ['read'], 'flag')).toBe('только чтение (параметр --read-only): инструменты read (HUB_MCP_TOOLS), кроме пишущих');
    expect(mcpModeText(false, undefined, 'flag')).toBe('все инструменты');
  });
});
