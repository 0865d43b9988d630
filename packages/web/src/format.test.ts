import { describe, expect, it } from 'vitest';
import { ago, collide, day, duration, eta, plural, until } from './format';

describe('format', () => {
  it.each([
    [0, '0 с'],
    [45, '45 с'],
    [95, '2 мин'],
    [3900, '1 ч 5 мин'],
    [7200, '2 ч'],
    [90000, '1 д 1 ч'],
  ])('duration(%d) = %s', (s, text) => expect(duration(s)).toBe(text));

  it.each([
    [1, 'задача'],
    [3, 'задачи'],
    [5, 'задач'],
    [11, 'задач'],
    [21, 'задача'],
    [112, 'задач'],
  ])('plural(%d) = %s', (n, word) => expect(plural(n, 'задача', 'задачи', 'задач')).toBe(word));

  it('says how long ago and when a batch should end', () => {
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(ago('2026-11-30T09:59:55Z', now)).toBe('только что');
    expect(ago('2026-11-30T09:40:00Z', now)).toBe('20 мин назад');
    expect(ago(null, now)).toBe('—');
    expect(eta(0, now)).toBe('—');
    expect(eta(1500, now)).toMatch(/^≈ 25 мин \(к \d\d:\d\d\)$/);
  });

  it('due dates as «2 дек.», seconds where times collide, time left', () => {
    expect(day('2026-12-02')).toMatch(/^2 дек\.?( 2026 г\.)?$/);
    expect(collide(['2026-12-02T07:00:04Z', '2026-12-02T07:00:41Z'])).toBe(true);
    expect(collide(['2026-12-02T07:00:04Z', '2026-12-02T07:01:04Z'])).toBe(false);
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(until('2026-11-30T10:00:24Z', now)).toBe('через 24 с');
    expect(until('2026-11-30T09:00:24Z', now)).toBe('сейчас');
  });
});
