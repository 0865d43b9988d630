import type { AuditRecord } from '@jira-hub/contracts';
import { useCallback, useEffect, useState } from 'react';
import { api, query } from '../api';
import { Empty, ErrorBox, Loading } from '../components/ui';
import { when } from '../format';
import { batchHref } from '../router';

/** One call of the AI assistant as GET /audit gives it. */
export type AuditEntry = AuditRecord;

/** A call's outcome in words: the error codes of the hub's answers (SPEC 11) and of the MCP tools; another code as it is. */
const OUTCOMES: Record<string, string> = {
  ok: 'успешно',
  unauthorized: 'нет входа: токен не принят',
  forbidden: 'запрещено этой роли',
  not_found: 'не найдено',
  method_not_allowed: 'этот путь не принимает такой метод',
  validation_failed: 'неверные данные',
  duplicate_summary: 'темы задач повторяются',
  plan_failed: 'план не прошёл проверку',
  not_claimed: 'команда не выдана агенту',
  claimed: 'команда уже у агента',
  finished: 'уже завершено',
  conflict: 'конфликт с текущим состоянием',
  idempotency_mismatch: 'ключ идемпотентности уже занят другим пакетом',
  payload_too_large: 'слишком большой запрос',
  bad_json: 'тело запроса — не JSON',
  bad_request: 'неверный запрос',
  headers_too_large: 'слишком большие заголовки',
  request_timeout: 'запрос не дошёл целиком',
  unavailable: 'хаб недоступен',
  timeout: 'хаб не ответил вовремя',
  invalid_arguments: 'неверные аргументы инструмента',
  unknown_tool: 'нет такого инструмента',
  tool_unavailable: 'инструмент выключен',
  internal: 'внутренняя ошибка',
};

export function outcomeText(outcome: string): string {
  const words = OUTCOMES[outcome];
  if (outcome === 'ok') return words;
  return words ? `ошибка: ${words}` : `ошибка: ${outcome}`;
}


/**
 * What the AI assistant asked of the hub (issue 22): every MCP tool call and every REST call with the
 * assistant's role, newest first; `batchId` shows one batch's calls (the batch page embeds it).
 */
export function AuditPage({ batchId, pageSize = 50 }: { batchId?: number; pageSize?: number }) {
  /** null until the first page came: «ничего не вызывал» only once the hub said so. */
  const [rows, setRows] = useState<AuditEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (before?: number) => {
      try {
        const page = await api.get<AuditEntry[]>(`/audit${query({ batch_id: batchId, before_id: before, limit: pageSize })}`);
        setRows((old) => (before ? [...(old ?? []), ...page] : page));
        setMore(page.length === pageSize);
        setError(null);
      } catch (err) {
        setError(err);
      }
    },
    [batchId, pageSize],
  );
  useEffect(() => void load(), [load]);
  /** The next page; the button waits for it, so a double click reads it once (not twice, each row shown twice). */
  const next = async () => {
    setBusy(true);
    await load(rows?.[rows.length - 1]?.id);
    setBusy(false);
  };

  return (
    <section>
      {batchId === undefined && (
        <header className="page-head">
          <h1>Ассистент</h1>
          <p className="muted">Каждый вызов ИИ-ассистента: инструменты MCP и запросы REST с его ролью, новые сверху.</p>
        </header>
      )}
      {error !== null && <ErrorBox error={error} />}
      {rows === null ? (
        error === null && <Loading rows={3} label="Загрузка вызовов ассистента…" />
      ) : rows.length === 0 ? (
        error === null && <Empty>Ассистент ещё ничего не вызывал.</Empty>
      ) : (
        <table className="table audit responsive">
          <thead>
            <tr>
              <th>Когда</th>
              <th>Что</th>
              <th>Аргументы</th>
              <th>Итог</th>
              <th>Пакет</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td data-label="Когда">{when(r.at)}</td>
                <td data-label="Что">
                  <div>
                    {r.channel === 'rest' ? r.route : `MCP: ${r.tool}`}
                    {r.channel === 'rest' && r.tool ? <div className="muted">для {r.tool}</div> : null}
                    {r.channel === 'mcp_stdio' ? (
                      <div className="muted" title="Этот вызов сообщил сам MCP-сервер (jira-hub mcp) с токеном ассистента; хаб видел только его запросы REST — строки ниже с «для …»">
                        со слов MCP-сервера (stdio)
                      </div>
                    ) : null}
                  </div>
                </td>
                <td data-label="Аргументы">
                  <code className="args">{r.arguments}</code>
                </td>
                <td data-label="Итог" title={[r.outcome === 'ok' ? null : r.outcome, r.detail].filter(Boolean).join(': ') || undefined}>
                  {outcomeText(r.outcome)}
                </td>
                <td data-label="Пакет">{r.batch_id ? <a href={batchHref(r.batch_id)}>#{r.batch_id}</a> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more && (
        <button className="btn" onClick={() => void next()} disabled={busy}>
          Показать ещё
        </button>
      )}
    </section>
  );
}
