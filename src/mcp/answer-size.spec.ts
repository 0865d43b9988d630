import { describe, expect, it } from '@jest/globals';
import { clip, fitAnswer, STRING_CAP } from './answer-size.js';

describe('fitAnswer', () => {
  it('leaves a small answer as it is', () => {
    expect(fitAnswer({ text: 'Пакет #1', data: { id: 1, list: [1, 2] } })).toEqual({ text: 'Пакет #1', data: { id: 1, list: [1, 2] } });
  });

  it('cuts long strings in the data and halves the longest list until the answer fits, saying so', () => {
    const items = Array.from({ length: 400 }, (_, i) => ({ i, text: 'я'.repeat(300) }));
    const fitted = fitAnswer({ text: 'Ответ', data: { items, note: 'ю'.repeat(STRING_CAP + 10) } }, 30_000);
    const data = fitted.data as { items: unknown[]; note: string };
    expect(data.note).toBe(clip('ю'.repeat(STRING_CAP + 10), STRING_CAP));
    expect(data.items.length).toBeLessThan(400);
    expect(fitted.text.length + JSON.stringify(fitted.data).length).toBeLessThanOrEqual(30_000);
    expect(fitted.text).toMatch(/^Ответ\nВ данных список items сокращён \(было 400\); запросите остальное через offset и limit/);
  });

  it('cuts a long text at a line and says how to get the rest', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `строка ${i}`).join('\n');
    const fitted = fitAnswer({ text, data: {} }, 10_000);
    expect(fitted.text.length).toBeLessThan(5_200);
    expect(fitted.text).toMatch(/\nТекст ответа сокращён до \d+ символов; запросите остальное/);
  });
});
