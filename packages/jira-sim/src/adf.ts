/** Minimal Atlassian Document Format conversion: one paragraph per text line. */

export interface AdfNode {
  type: string;
  text?: string;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
}

export function textToAdf(text: string): AdfNode {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return {
    type: 'doc',
    version: 1,
    content: lines.map((line) => (line === '' ? { type: 'paragraph', content: [] } : { type: 'paragraph', content: [{ type: 'text', text: line }] })),
  } as AdfNode;
}

export function isAdfDoc(value: unknown): value is AdfNode {
  return typeof value === 'object' && value !== null && (value as AdfNode).type === 'doc' && Array.isArray((value as AdfNode).content);
}

/** Plain text of a document: block nodes are separated by newlines. */
export function adfToText(node: AdfNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  const children = node.content ?? [];
  if (node.type === 'doc' || node.type === 'bulletList' || node.type === 'orderedList' || node.type === 'listItem') {
    return children.map(adfToText).join('\n');
  }
  return children.map(adfToText).join('');
}
