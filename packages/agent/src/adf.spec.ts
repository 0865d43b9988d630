import { describe, expect, it } from '@jest/globals';
import { adfToText, textToAdf } from './adf.js';

const paragraph = (...content: unknown[]) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content }] });
const text = (t: string) => ({ type: 'text', text: t });

describe('adfToText', () => {
  it.each([
    ['mention', { type: 'mention', attrs: { id: '5b10ac8d82e05b22cc7d4ef5', text: '@Анна Петрова', accessLevel: '' } }, '@Анна Петрова'],
    ['emoji with text', { type: 'emoji', attrs: { shortName: ':grinning:', id: '1f600', text: '😀' } }, '😀'],
    ['emoji without text', { type: 'emoji', attrs: { shortName: ':awthanks:' } }, ':awthanks:'],
    ['inlineCard', { type: 'inlineCard', attrs: { url: 'https://example.atlassian.net/browse/AURORA-1' } }, 'https://example.atlassian.net/browse/AURORA-1'],
    ['date (timestamp string, ms)', { type: 'date', attrs: { timestamp: '1582152559000' } }, '2020-02-19'],
    ['date (timestamp number, ms)', { type: 'date', attrs: { timestamp: Date.UTC(2024, 11, 31) } }, '2024-12-31'],
    ['date with a bad timestamp', { type: 'date', attrs: { timestamp: 'soon' } }, ''],
    ['status', { type: 'status', attrs: { text: 'В РАБОТЕ', color: 'blue', localId: 'x' } }, 'В РАБОТЕ'],
    ['mention without attrs', { type: 'mention' }, ''],
  ])('renders an inline %s', (_name, node, expected) => {
    expect(adfToText(node)).toBe(expected);
    expect(adfToText(paragraph(text('до '), node, text(' после')))).toBe(`до ${expected} после`);
  });

  it.each([
    ['plain lines', textToAdf('раз\nдва'), 'раз\nдва'],
    ['hard break', paragraph(text('a'), { type: 'hardBreak' }, text('b')), 'a\nb'],
    ['a list', { type: 'doc', content: [{ type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('x')).content[0]] }, { type: 'listItem', content: [paragraph(text('y')).content[0]] }] }] }, 'x\ny'],
    ['unknown leaf node', paragraph(text('a'), { type: 'placeholder', attrs: { text: 'hint' } }), 'a'],
    ['a string', 'как есть', 'как есть'],
    ['null', null, ''],
  ])('keeps %s', (_name, node, expected) => {
    expect(adfToText(node)).toBe(expected);
  });
});
