import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, ApiError, onUnauthorized, probe, token } from './api';
import { AgentProvider, AgentStrip } from './components/AgentStrip';
import { ErrorBox, PageError } from './components/ui';
import { Hub } from './context';
import { LiveClient, type LiveState } from './live';
import { AgentPage } from './pages/Agent';
import { AuditPage } from './pages/Audit';
import { BatchPage } from './pages/Batch';
import { ImportPage } from './pages/Import';
import { MirrorPage } from './pages/Mirror';
import { PackagesPage } from './pages/Packages';
import { QueuePage } from './pages/Queue';
import { SettingsPage } from './pages/Settings';
import { refusal, SignIn } from './pages/SignIn';
import { useRoute } from './router';
import type { Settings } from './types';

const NAV = [
  ['queue', 'Очередь'],
  ['agent', 'Агент'],
  ['mirror', 'Зеркало'],
  ['import', 'Импорт'],
  ['packages', 'Пакеты'],
  ['settings', 'Настройки'],
  ['audit', 'Ассистент'],
] as const;

/** A batch's or a planning package's number in an address: no request for /batches/NaN. */
const NUMBER = /^[1-9][0-9]{0,9}$/;

/** Every page the router shows: the sections of the menu and a batch's page. */
export const PAGES: ReadonlySet<string> = new Set(['batch', ...NAV.map(([id]) => id)]);

const LIVE_TEXT: Record<LiveState, string> = { open: 'обновляется само', connecting: 'подключение…', offline: 'нет связи с хабом' };

export type Boot = { kind: 'loading' } | { kind: 'signin'; message?: string } | { kind: 'failed'; error: unknown } | { kind: 'ready'; settings: Settings };

/**
 * The app's state after the settings were read again (a `settings` event, a resync): unchanged when they
 * are the version already shown, so the pages keep what they hold — the Settings page its unsaved edits.
 */
export function withSettings(boot: Boot, settings: Settings): Boot {
  return boot.kind === 'ready' && boot.settings.version === settings.version ? boot : { kind: 'ready', settings };
}

export function App() {
  const route = useRoute();
  const [boot, setBoot] = useState<Boot>({ kind: 'loading' });
  const [liveState, setLiveState] = useState<LiveState>('connecting');
  const [menu, setMenu] = useState(false);
  const live = useMemo(() => new LiveClient('/events', () => setBoot({ kind: 'signin', message: 'Сеанс закончился: войдите снова.' })), []);

  /**
   * The first call tells whether the hub wants a token: 401 → the sign-in screen. With a token, the
   * live stream (client token only) must open too: the agent's and the assistant's are refused.
   */
  const start = useCallback(async () => {
    const settings = await api.get<Settings>('/settings');
    if (token.get()) await probe('/events');
    setBoot({ kind: 'ready', settings });
  }, []);

  useEffect(() => {
    start().catch((err) => {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        const had = token.get();
        token.clear();
        setBoot({ kind: 'signin', message: had ? refusal(err) : undefined });
      } else setBoot({ kind: 'failed', error: err });
    });
    return onUnauthorized(() => setBoot({ kind: 'signin', message: 'Токен больше не подходит: войдите снова.' }));
  }, [start]);

  const ready = boot.kind === 'ready';
  useEffect(() => setMenu(false), [route.page, route.id]);
  useEffect(() => {
    if (!menu) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenu(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menu]);
  useEffect(() => {
    if (!ready) return;
    const off = live.onState(setLiveState);
    const offSettings = live.subscribe((m) => {
      if (m.event === 'settings' || m.event === 'resync') api.get<Settings>('/settings').then((settings) => setBoot((b) => withSettings(b, settings)), () => undefined);
    });
    live.start();
    return () => {
      off();
      offSettings();
      live.stop();
    };
  }, [ready, live]);

  if (boot.kind === 'loading') return <div className="boot muted" role="status">Загрузка…</div>;
  if (boot.kind === 'signin') return <SignIn check={start} message={boot.message} />;
  if (boot.kind === 'failed') {
    return (
      <div className="boot">
        <h1>Хаб не отвечает</h1>
        <ErrorBox error={boot.error} />
        <button className="btn" onClick={() => window.location.reload()}>
          Попробовать снова
        </button>
      </div>
    );
  }

  const page = route.page === 'batch' ? 'queue' : route.page;
  return (
    <Hub.Provider value={{ live, settings: boot.settings }}>
      <AgentProvider>
      <div className={menu ? 'layout menu-open' : 'layout'}>
        <header className="topbar">
          <button type="button" className="btn btn-ghost menu-button" aria-expanded={menu} aria-controls="sidebar" onClick={() => setMenu(!menu)}>
            ☰ Меню
          </button>
          <span className="brand">
            <span className="logo">◆</span> Jira Hub
          </span>
        </header>
        {menu && <div className="scrim" onClick={() => setMenu(false)} />}
        <aside className="sidebar" id="sidebar">
          <div className="brand">
            <span className="logo">◆</span> Jira Hub
          </div>
          <nav aria-label="Разделы">
            {NAV.map(([id, label]) => (
              <a key={id} href={`#/${id}`} className={page === id ? 'nav nav-on' : 'nav'} aria-current={page === id ? 'page' : undefined}>
                {label}
              </a>
            ))}
          </nav>
          <div className={`live live-${liveState}`} title="Связь с хабом (GET /events)">
            <span className="dot" /> {LIVE_TEXT[liveState]}
          </div>
          {token.get() && (
            <button
              className="btn btn-ghost"
              onClick={() => {
                token.clear();
                live.stop();
                setBoot({ kind: 'signin' });
              }}
            >
              Выйти
            </button>
          )}
        </aside>
        <main className="content">
          {liveState === 'offline' && (
            <div className="hub-gone" role="alert">
              Нет связи с хабом: на странице то, что было загружено раньше. Переподключаемся…
            </div>
          )}
          <AgentStrip />
          {route.page === 'batch' && route.id && NUMBER.test(route.id) && <BatchPage key={route.id} id={Number(route.id)} />}
          {route.page === 'batch' && route.id && !NUMBER.test(route.id) && <PageError error={new ApiError(404, 'not_found', `Пакета «${route.id}» нет: номер пакета — целое число, например #/batch/12.`)} />}
          {route.page === 'queue' && <QueuePage />}
          {route.page === 'agent' && <AgentPage />}
          {route.page === 'mirror' && <MirrorPage issueKey={route.id} />}
          {route.page === 'import' && <ImportPage />}
          {route.page === 'packages' && (!route.id || NUMBER.test(route.id)) && <PackagesPage key={route.id ?? ''} id={route.id} />}
          {route.page === 'packages' && route.id && !NUMBER.test(route.id) && (
            <PageError error={new ApiError(404, 'not_found', `Пакета планирования «${route.id}» нет: его номер — целое число, например #/packages/3.`)} />
          )}
          {route.page === 'audit' && <AuditPage />}
          {route.page === 'settings' && <SettingsPage onSaved={(settings) => setBoot({ kind: 'ready', settings })} />}
          {!PAGES.has(route.page) && <PageError error={`Страницы «${route.page}» нет.`} notFound />}
        </main>
      </div>
      </AgentProvider>
    </Hub.Provider>
  );
}
