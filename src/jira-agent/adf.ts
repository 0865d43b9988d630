/** Plain text ⟷ Atlassian Document Format (Cloud v3 bodies): one paragraph per line. */

interface AdfNode {
  type?: string;
  text?: string;
  content?: AdfNode[];
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

/** Best-effort text of any ADF node: block children on separate lines, inline children joined. */
export function adfToText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (typeof node !== 'object' || node === null) return '';
  const n = node as AdfNode;
  if (n.type === 'text') return n.text ?? '';
  if (n.type === 'hardBreak') return '\n';
  const children = Array.isArray(n.content) ? n.content : [];
  return children.map(adfToText).join(BLOCK_CONTAINERS.has(n.type ?? '') ? '\n' : '');
}
