import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorBox } from '../components/ui';
import { useHub } from '../context';
import type { Settings } from '../types';
import { COMMAND_TYPE, SOURCE } from '../words';

type Draft = {
  pacing: Record<string, string>;
  interval: string;
  jql: string;
  approval: Record<string, boolean>;
  linkTypes: [string, string][];
  fields: string;
};

const draftOf = (s: Settings): Draft => ({
  pacing: Object.fromEntries(Object.entries(s.pacing).map(([k, v]) => [k, String(v)])),
  interval: String(s.auto_refresh.interval_minutes),
  jql: s.auto_refresh.jql ?? '',
  approval: { ...(s.approval ?? {}) },
  linkTypes: Object.entries(s.link_types),
  fields: s.fields.join(', '),
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The form after the settings changed from `before` to `after` elsewhere: each part the person left as it
 * was (`draft` still equals `before` there) shows `after`; an edited part stays as edited.
 */
export function mergeDraft(before: Draft, draft: Draft, after: Draft): Draft {
  const part = <K extends keyof Draft>(k: K): Draft[K] => (same(draft[k], before[k]) ? after[k] : draft[k]);
  const byKey = (k: 'pacing' | 'approval') =>
    Object.fromEntries(Object.keys({ ...after[k], ...draft[k] }).map((t) => [t, same(draft[k][t], before[k][t]) ? after[k][t] : draft[k][t]]));
  return { pacing: byKey('pacing') as Draft['pacing'], interval: part('interval'), jql: part('jql'), approval: byKey('approval') as Draft['approval'], linkTypes: part('linkTypes'), fields: part('fields') };
}

/** A number field's value; an empty field is no number (Number('') would be 0). */
const numberOf = (v: string): number | null => (v.trim() === '' ? null : Number(v));

/**
 * What keeps the draft from being saved, per field (`pacing.<type>`, `interval`, `jql`): a number field left
 * empty, or an interval without the JQL it reads by (the hub stores it, but never refreshes without a query)
 * — said only when the person edits either (`shown`: the settings the form started from), so that settings
 * stored so elsewhere never keep another field's change from being saved. The limits of a number the hub
 * checks, and says in its own words.
 */
export function problemsOf(d: Draft, shown?: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [type, v] of Object.entries(d.pacing)) if (numberOf(v) === null) problems[`pacing.${type}`] = 'Поле пустое: укажите паузу в секундах (0 — без паузы).';
  if (numberOf(d.interval) === null) problems.interval = 'Поле пустое: укажите число минут (0 — выключено).';
  else if (Number(d.interval) > 0 && !d.jql.trim() && (!shown || shown.interval !== d.interval || shown.jql !== d.jql)) problems.jql = 'Укажите JQL: без запроса хаб не обновляет зеркало сам (или 0 минут — выключить).';
  return problems;
}

/** The PATCH body: only what differs from the settings shown; an empty number field is never sent (see `problemsOf`). */
export function patchOf(s: Settings, d: Draft): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const pacing = Object.fromEntries(
    Object.entries(d.pacing)
      .map(([k, v]) => [k, numberOf(v)] as const)
      .filter(([k, v]) => v !== null && v !== (s.pacing as Record<string, number>)[k]),
  );
  if (Object.keys(pacing).length) patch.pacing = pacing;
  const interval = numberOf(d.interval) ?? s.auto_refresh.interval_minutes;
  const auto = { interval_minutes: interval, jql: d.jql.trim() || null };
  if (auto.interval_minutes !== s.auto_refresh.interval_minutes || auto.jql !== s.auto_refresh.jql) patch.auto_refresh = auto;
  if (s.approval && JSON.stringify(d.approval) !== JSON.stringify(s.approval)) patch.approval = d.approval;
  const linkTypes = Object.fromEntries(d.linkTypes.filter(([k, v]) => k.trim() && v.trim()).map(([k, v]) => [k.trim(), v.trim()]));
  if (JSON.stringify(linkTypes) !== JSON.stringify(s.link_types)) patch.link_types = linkTypes;
  const fields = d.fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (JSON.stringify(fields) !== JSON.stringify(s.fields)) patch.fields = fields;
  return patch;
}

/** The field a problem's key names, in words: «пауза «поля»», «автообновление». */
const problemField = (key: string): string =>
  key === 'interval' ? 'автообновление' : key === 'jql' ? 'JQL автообновления' : `пауза «${COMMAND_TYPE[key.slice('pacing.'.length)] ?? key}»`;

/** A field's own problem, under it. */
function FieldProblem({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span className="field-problem" id={id}>
      {text}
    </span>
  ) : null;
}

export function SettingsPage({ onSaved }: { onSaved: (s: Settings) => void }) {
  const { settings } = useHub();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  // Settings changed elsewhere (live) replace the form only where the person has not edited it: an edit in
  // progress stays, the rest shows the new values.
  const shown = useRef(settings);
  useEffect(() => {
    const before = draftOf(shown.current);
    const after = draftOf(settings);
    shown.current = settings;
    setDraft((d) => mergeDraft(before, d, after));
  }, [settings]);
  const patch = patchOf(settings, draft);
  const problems = problemsOf(draft, draftOf(settings));
  const invalid = Object.keys(problems).length > 0;
  const dirty = Object.keys(patch).length > 0;
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    if (!invalid) setBlocked(false);
  }, [invalid]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (invalid) {
      setBlocked(true); // nothing is sent while a field is empty
      return;
    }
    try {
      onSaved(await api.patch<Settings>('/settings', patch));
      setError(null);
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  const setLink = (i: number, j: 0 | 1, v: string) => setDraft({ ...draft, linkTypes: draft.linkTypes.map((row, n) => (n === i ? (j ? [row[0], v] : [v, row[1]]) : row)) });

  return (
    <section>
      <header className="page-head">
        <h1>Настройки</h1>
        <span className="muted">версия {settings.version}</span>
      </header>
      {/* noValidate: the hub checks the limits and says what is wrong in Russian; a browser would stop the
          form with a bubble in its own language (often English). */}
      <form className="settings" onSubmit={save} noValidate>
        <div className="panel form">
          <h2 className="panel-title">Темп: пауза после команды, секунд</h2>
          <div className="grid">
            {Object.keys(draft.pacing).map((type) => (
              <label className="field" key={type}>
                <span>{COMMAND_TYPE[type] ?? type}</span>
                <input
                  type="number"
                  min={0}
                  max={3600}
                  value={draft.pacing[type]}
                  aria-invalid={problems[`pacing.${type}`] ? true : undefined}
                  aria-describedby={problems[`pacing.${type}`] ? `problem-pacing-${type}` : undefined}
                  onChange={(e) => setDraft({ ...draft, pacing: { ...draft.pacing, [type]: e.target.value } })}
                />
                <FieldProblem id={`problem-pacing-${type}`} text={problems[`pacing.${type}`]} />
              </label>
            ))}
          </div>
        </div>
        <div className="panel form">
          <h2 className="panel-title">Автообновление зеркала</h2>
          <div className="grid">
            <label className="field">
              <span>Раз в, минут (0 — выключено)</span>
              <input
                type="number"
                min={0}
                value={draft.interval}
                aria-invalid={problems.interval ? true : undefined}
                aria-describedby={problems.interval ? 'problem-interval' : undefined}
                onChange={(e) => setDraft({ ...draft, interval: e.target.value })}
              />
              <FieldProblem id="problem-interval" text={problems.interval} />
            </label>
            <label className="field wide">
              <span>JQL</span>
              <input
                value={draft.jql}
                placeholder="project = AURORA"
                aria-invalid={problems.jql ? true : undefined}
                aria-describedby={problems.jql ? 'problem-jql' : undefined}
                onChange={(e) => setDraft({ ...draft, jql: e.target.value })}
              />
              <FieldProblem id="problem-jql" text={problems.jql} />
            </label>
          </div>
        </div>
        {settings.approval && (
          <div className="panel form">
            <h2 className="panel-title">Одобрение: чьи пакеты ждут человека</h2>
            {Object.keys(draft.approval).map((source) => (
              <label className="check" key={source}>
                <input type="checkbox" checked={draft.approval[source]} onChange={(e) => setDraft({ ...draft, approval: { ...draft.approval, [source]: e.target.checked } })} />
                {SOURCE[source] ?? source}
              </label>
            ))}
          </div>
        )}
        <div className="panel form">
          <h2 className="panel-title">Типы связей: название в плане → тип связи Jira</h2>
          {draft.linkTypes.map(([name, jira], i) => (
            <div className="row" key={i}>
              <input aria-label="Название в плане" value={name} onChange={(e) => setLink(i, 0, e.target.value)} />
              <span>→</span>
              <input aria-label="Тип связи Jira" value={jira} onChange={(e) => setLink(i, 1, e.target.value)} />
              <button type="button" className="btn btn-small" onClick={() => setDraft({ ...draft, linkTypes: draft.linkTypes.filter((_, n) => n !== i) })}>
                Убрать
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={() => setDraft({ ...draft, linkTypes: [...draft.linkTypes, ['', '']] })}>
            Добавить тип
          </button>
        </div>
        <div className="panel form">
          <h2 className="panel-title">Дополнительные поля Jira</h2>
          <label className="field">
            <span>Имена полей через запятую (разрешены в командах «поля»)</span>
            <input value={draft.fields} placeholder="customfield_10010, Story Points" onChange={(e) => setDraft({ ...draft, fields: e.target.value })} />
          </label>
        </div>
        <ErrorBox error={error} />
        {blocked && invalid && (
          <div className="error" role="alert">
            Не сохранено, хаб ничего не получил: не заполнено — {Object.keys(problems).map(problemField).join(', ')}.
            {Object.keys(problems).some((k) => k !== 'jql') ? ' Впишите число (0 — без паузы или без автообновления).' : ''}
            {problems.jql ? ' Впишите JQL или поставьте 0 минут.' : ''}
          </div>
        )}
        <div className="actions">
          <button className="btn btn-primary" type="submit" disabled={!dirty && !invalid}>
            Сохранить
          </button>
          <button type="button" className="btn" disabled={!dirty && !invalid} onClick={() => setDraft(draftOf(settings))}>
            Вернуть как было
          </button>
          {saved && !dirty && <span className="ok">Сохранено, версия {settings.version}</span>}
        </div>
      </form>
    </section>
  );
}
