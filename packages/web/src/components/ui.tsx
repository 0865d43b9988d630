import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api';
import type { BatchSummary, CommandStatus } from '../types';
import { COMMAND_STATUS, countsText, OUTCOME_TEXT, outcomeOf } from '../words';

/** A batch's chip: its outcome told honestly («завершён с ошибками», «отклонён»). */
export function BatchChip({ batch }: { batch: Pick<BatchSummary, 'status' | 'counts' | 'rejected_reason'> }) {
  const outcome = outcomeOf(batch);
  return <span className={`chip chip-${outcome}`}>{OUTCOME_TEXT[outcome] ?? outcome}</span>;
}

export function CommandChip({ status }: { status: CommandStatus }) {
  return <span className={`chip chip-${status}`}>{COMMAND_STATUS[status] ?? status}</span>;
}

/** Finished commands of a batch against all of them. */
export function progressOf(b: Pick<BatchSummary, 'counts'>): { finished: number; total: number } {
  const counts = b.counts as Record<string, number>;
  const total = Object.values(counts).reduce((a, n) => a + (n ?? 0), 0);
  return { finished: total - (counts.queued ?? 0) - (counts.claimed ?? 0), total };
}

/** The bar's parts, in this order: what ran, what failed, skipped, cancelled (never drawn as done). */
const SEGMENTS: [string, (c: Partial<Record<CommandStatus, number>>) => number][] = [
  ['ok', (c) => (c.done ?? 0) + (c.confirmed_by_state ?? 0)],
  ['failed', (c) => c.failed ?? 0],
  ['skipped', (c) => c.skipped ?? 0],
  ['cancelled', (c) => c.cancelled ?? 0],
];

/**
 * How far a batch is, in parts: done (blue), failed (red), skipped (amber), cancelled (grey hatching),
 * and the counts in words under it. A cancelled or rejected batch never shows a full blue bar.
 */
export function Progress({ batch }: { batch: Pick<BatchSummary, 'counts' | 'status'> }) {
  const { finished, total } = progressOf(batch);
  const text = countsText(batch.counts);
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={finished} aria-label={`${finished} из ${total}: ${text}`}>
      <div className="progress-track">
        {total > 0 &&
          SEGMENTS.map(([name, count]) => {
            const n = count(batch.counts);
            return n ? <div key={name} className={`progress-bar progress-${name}`} style={{ width: `${(n / total) * 100}%` }} /> : null;
          })}
      </div>
      <span className="progress-text">{text}</span>
    </div>
  );
}

export function errorText(error: unknown): string {
  return error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      {errorText(error)}
    </div>
  );
}

/** A page that could not load: what went wrong, a way back, and a retry. */
export function PageError({ error, back = ['#/queue', 'К очереди'], retry, notFound = false }: { error: unknown; back?: [string, string]; retry?: () => void; notFound?: boolean }) {
  const gone = error instanceof ApiError && error.status === 0;
  // What is not there will not be there on a second try: no retry for it.
  const missing = notFound || (error instanceof ApiError && error.status === 404);
  if (missing) retry = undefined;
  return (
    <section className="page-error" role="alert">
      <h1>{gone ? 'Хаб не отвечает' : missing ? 'Не найдено' : 'Не удалось загрузить'}</h1>
      <p>{errorText(error)}</p>
      <div className="actions">
        <a className="btn" href={back[0]}>
          ← {back[1]}
        </a>
        {retry && (
          <button type="button" className="btn btn-primary" onClick={retry}>
            Попробовать снова
          </button>
        )}
      </div>
    </section>
  );
}

/** A placeholder with the shape of what is loading (no page number over blank space). */
export function Loading({ rows = 4, label = 'Загрузка…' }: { rows?: number; label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

export interface ConfirmSpec {
  title: string;
  text: ReactNode;
  confirm: string;
  /** the label of the button that closes without acting (never a bare «Отмена» beside «Отменить …») */
  dismiss?: string;
  danger?: boolean;
  /** a reason the person must type (reject) */
  reason?: string;
  run: (reason: string) => Promise<unknown>;
}

/**
 * A button that asks before it acts; the hub's refusal (its Russian `detail`) stays in the dialog.
 * `show`: whether the action applies now. A dialog already open stays open when it stops applying (a
 * live update came meanwhile): the person confirms and reads the hub's answer, or closes it.
 */
export function ConfirmButton({ label, spec, className, show = true }: { label: string; spec: ConfirmSpec; className?: string; show?: boolean }) {
  const [open, setOpen] = useState(false);
  // The button leaves the page with the focus on it when it stops applying (its own action done, or a live
  // update): the focus stays where it was instead of falling to <body>. Called while the button is still on the page.
  const keepFocus = useCallback((button: HTMLButtonElement | null) => {
    if (!button) return;
    return () => {
      if (document.activeElement !== button) return;
      const around = ancestors(button);
      queueMicrotask(() => lostFocus() && rescueFocus(around));
    };
  }, []);
  if (!show && !open) return null;
  return (
    <>
      {show && (
        <button type="button" ref={keepFocus} className={className ?? 'btn'} onClick={() => setOpen(true)}>
          {label}
        </button>
      )}
      {open && <ConfirmDialog spec={spec} onClose={() => setOpen(false)} />}
    </>
  );
}

const FOCUSABLE = 'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements around `element`, nearest first, up to <body>. */
function ancestors(element: Element | null): HTMLElement[] {
  const around: HTMLElement[] = [];
  for (let a = element?.parentElement; a && a !== document.body; a = a.parentElement) around.push(a);
  return around;
}

/** Whether the focus fell to the start of the page (what had it was removed). */
const lostFocus = (): boolean => !document.activeElement || document.activeElement === document.body;

/**
 * The focus where a removed control was: the first control of the nearest of `around` still on the page
 * («Повторить» where «Отменить» was), else that element itself — not <body>, the start of the page.
 */
function rescueFocus(around: HTMLElement[]): void {
  const place = around.find((a) => a.isConnected);
  if (!place) return;
  const target = place.querySelector<HTMLElement>(FOCUSABLE) ?? place;
  if (target === place && !place.matches(FOCUSABLE)) place.tabIndex = -1;
  target.focus();
}

/**
 * A modal dialog that is safe with a keyboard: focus moves into it, Tab and Shift+Tab stay inside,
 * Escape closes it, and focus returns to what had it before (or near it, when that is gone).
 */
export function Modal({ title, onClose, children, className }: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const around = ancestors(before);
    const box = ref.current!;
    (box.querySelector<HTMLElement>('[autofocus], textarea, input') ?? box.querySelector<HTMLElement>(FOCUSABLE) ?? box).focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close.current();
      } else if (e.key === 'Tab') {
        const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)];
        if (items.length === 0) return e.preventDefault();
        const first = items[0];
        const last = items[items.length - 1];
        const inside = box.contains(document.activeElement);
        if (e.shiftKey && (document.activeElement === first || !inside)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      // What opened the dialog may be gone with what the dialog did: then the focus stays near where it was.
      if (before && document.contains(before)) before.focus();
      else if (lostFocus()) rescueFocus(around);
    };
  }, []);
  return (
    <div className="overlay" onClick={onClose}>
      <div className={className ? `dialog ${className}` : 'dialog'} role="dialog" aria-modal="true" aria-label={title} ref={ref} tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        {children}
      </div>
    </div>
  );
}

export function ConfirmDialog({ spec, onClose }: { spec: ConfirmSpec; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await spec.run(reason.trim());
      onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <Modal title={spec.title} onClose={onClose}>
      <h2 className="dialog-title">{spec.title}</h2>
      <div className="dialog-text">{spec.text}</div>
      {spec.reason !== undefined && (
        <label className="field">
          <span>{spec.reason}</span>
          <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
        </label>
      )}
      <ErrorBox error={error} />
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {spec.dismiss ?? 'Не сейчас'}
        </button>
        <button type="button" className={spec.danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy || (spec.reason !== undefined && !reason.trim())} onClick={go}>
          {spec.confirm}
        </button>
      </div>
    </Modal>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/** A filter button: pressed or not (aria-pressed), with a count when given. */
export function FilterButton({ on, count, onClick, children }: { on: boolean; count?: number; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={`filter${on ? ' filter-on' : ''}`} aria-pressed={on} onClick={onClick}>
      {children}
      {count !== undefined && <> <span className="count">{count}</span></>}
    </button>
  );
}
