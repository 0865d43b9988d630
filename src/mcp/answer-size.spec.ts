import { describe, expect, it } from '@jest/globals';
import { clip } from '../common/index.js';
import { fitAnswer, fitDetail, STRING_CAP } from './answer-size.js';

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

describe('fitDetail', () => {
  const how = 'исправьте показанные и повторите вызов';

  it('leaves a short detail as it is', () => {
    expect(fitDetail('a: плохо; b: плохо', how, 2)).toBe('a: плохо; b: плохо');
  });

  it('cuts a long list at a joint of findings and says how many there are and how to see them', () => {
    const detail = Array.from({ length: 100 }, (_, i) => `commands.${i}: плохо`).join('; ');
    const fitted = fitDetail(detail, how, 100, 200);
    expect(fitted.length).toBeLessThan(200 + 120);
    expect(fitted).toMatch(/^commands\.0: плохо; .*commands\.\d+: плохо; … Замечаний всего: 100, показаны первые \(ответ ограничен по размеру\); исправьте показанные и повторите вызов\.$/);
  });

  it('cuts one long finding with a note of how much is left out', () => {
    expect(fitDetail('я'.repeat(500), how, undefined, 100)).toBe(`${clip('я'.repeat(500), 100)}; ${how}.`);
  });
});
