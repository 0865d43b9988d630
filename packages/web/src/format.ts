/** Numbers, times and durations in Russian. */
export function plural(n: number, one: string, few: string, many: string): string {
  const a = Math.abs(n) % 100;
  const b = a % 10;
  if (a > 10 && a < 20) return many;
  if (b === 1) return one;
  if (b >= 2 && b <= 4) return few;
  return many;
}

/** 0 → «0 мин», 95 → «2 мин», 3 900 → «1 ч 5 мин», 90 000 → «1 д 1 ч». */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return s === 0 ? '0 мин' : `${s} с`;
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

/** «1 дек., 09:05» in the browser's time zone. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString('ru-RU', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** ETA of a batch from `remaining_seconds`: «≈ 25 мин (к 10:40)». */
export function eta(remainingSeconds: number, now = Date.now()): string {
  if (remainingSeconds <= 0) return '—';
  const at = new Date(now + remainingSeconds * 1000).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });
  return `≈ ${duration(remainingSeconds)} (к ${at})`;
}
