/** Numbers, times and durations in Russian, in the browser's time zone. The plural rule is the hub's own. */
export { plural } from '@jira-hub/contracts/russian';

/** 0 → «0 с», 24 → «24 с», 95 → «2 мин», 3 900 → «1 ч 5 мин», 90 000 → «1 д 1 ч». */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} с`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} мин`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} ч ${m % 60} мин` : `${h} ч`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} д ${h % 24} ч` : `${d} д`;
}

/** How long ago, from an ISO time: «только что», «5 мин назад». */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (s < 10) return 'только что';
  return `${duration(s)} назад`;
}

/** How long until an ISO time: «через 24 с»; past → «сейчас». */
export function until(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = (Date.parse(iso) - now) / 1000;
  return s <= 0.5 ? 'сейчас' : `через ${duration(s)}`;
}

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** «07:06» or, with seconds, «07:06:35». */
export function clock(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });
}

/** «2 дек.» (a date without time: a due date «2026-12-02» stays that day in any zone). */
export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00`) : new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const withYear = d.getFullYear() !== new Date().getFullYear();
  return d.toLocaleDateString('ru-RU', { day: 'numeric', month: 'short', ...(withYear ? { year: 'numeric' } : {}) });
}

/**
 * «сегодня, 07:06», «1 дек., 09:05»; `seconds` where times of one list would collide (a delivery history:
 * 07:00:04 / 07:00:41).
 */
export function when(iso: string | null | undefined, seconds = false, now = Date.now()): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const prefix = sameDay(d, new Date(now)) ? 'сегодня' : day(iso);
  return `${prefix}, ${clock(iso, seconds)}`;
}

/** Whether any two of these times fall in the same minute: then a list shows seconds. */
export function collide(isos: (string | null | undefined)[]): boolean {
  const minutes = isos.filter(Boolean).map((i) => Math.floor(Date.parse(i!) / 60_000));
  return new Set(minutes).size < minutes.length;
}

/** ETA of a batch from `remaining_seconds` as read at `since`: «≈ 25 мин (к 10:40)». */
export function eta(remainingSeconds: number, now = Date.now()): string {
  if (remainingSeconds <= 0) return '—';
  const at = new Date(now + remainingSeconds * 1000).toISOString();
  return `≈ ${duration(remainingSeconds)} (к ${clock(at)})`;
}
