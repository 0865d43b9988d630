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

/** The node types of Atlassian Document Format (its JSON schema, v1). */
const ADF_NODE_TYPES = new Set([
  'doc', 'paragraph', 'text', 'hardBreak', 'heading', 'bulletList', 'orderedList', 'listItem', 'codeBlock', 'blockquote', 'rule',
  'panel', 'table', 'tableRow', 'tableHeader', 'tableCell', 'mediaSingle', 'mediaGroup', 'media', 'mention', 'emoji', 'date',
  'status', 'inlineCard', 'blockCard', 'expand', 'nestedExpand', 'taskList', 'taskItem', 'decisionList', 'decisionItem', 'placeholder',
]);

/** Why Jira would refuse a document (version other than 1, an unknown node type, a text node without text); null when it is valid. */
export function adfProblem(doc: AdfNode): string | null {
  if ((doc as { version?: unknown }).version !== 1) return 'version must be 1';
  const walk = (node: AdfNode): string | null => {
    if (!node || typeof node !== 'object' || typeof node.type !== 'string') return 'a node without a type';
    if (!ADF_NODE_TYPES.has(node.type)) return `unknown node type '${node.type}'`;
    if (node.type === 'text' && (typeof node.text !== 'string' || node.text === '')) return 'a text node without text';
    if (node.content !== undefined && !Array.isArray(node.content)) return 'content must be an array';
    for (const child of node.content ?? []) {
      const problem = walk(child);
      if (problem) return problem;
    }
    return null;
  };
  return walk(doc);
}
