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
});
