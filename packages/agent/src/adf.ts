/** Plain text ⟷ Atlassian Document Format (Cloud v3 bodies): one paragraph per line. */

interface AdfNode {
  type?: string;
  text?: string;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
}

export function textToAdf(text: string): Record<string, unknown> {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return {
    type: 'doc',
    version: 1,
    content: lines.map((line) => ({ type: 'paragraph', content: line === '' ? [] : [{ type: 'text', text: line }] })),
  };
}

const BLOCK_CONTAINERS = new Set(['doc', 'bulletList', 'orderedList', 'listItem', 'blockquote', 'panel', 'table', 'tableRow', 'tableCell', 'tableHeader', 'expand']);

/**
 * Best-effort text of any ADF node: block children on separate lines, inline children joined. Inline nodes
 * without content show their attrs: a mention or emoji its text (emoji: else its short name), an inline card
 * its URL, a date its ISO day (YYYY-MM-DD, UTC), a status lozenge its text.
 */
export function adfToText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node !== 'object' || node === null) return '';
  const n = node as AdfNode;
  if (n.type === 'text') return n.text ?? '';
  if (n.type === 'hardBreak') return '\n';
  const attrs = n.attrs && typeof n.attrs === 'object' ? n.attrs : {};
  switch (n.type) {
    case 'mention':
    case 'status':
      return stringAttr(attrs.text);
    case 'emoji':
      return stringAttr(attrs.text) || stringAttr(attrs.shortName);
    case 'inlineCard':
      return stringAttr(attrs.url);
    case 'date':
      return isoDay(attrs.timestamp);
  }
  const children = Array.isArray(n.content) ? n.content : [];
  return children.map(adfToText).join(BLOCK_CONTAINERS.has(n.type ?? '') ? '\n' : '');
}

function stringAttr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** ADF `date` attrs.timestamp: epoch milliseconds, a string (as Jira sends it) or a number → YYYY-MM-DD (UTC). */
function isoDay(timestamp: unknown): string {
  const ms = typeof timestamp === 'number' ? timestamp : typeof timestamp === 'string' && timestamp.trim() !== '' ? Number(timestamp) : NaN;
  if (!Number.isFinite(ms)) return '';
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}
