import { useState, type FormEvent } from 'react';
import { ApiError, token } from '../api';

/** What a refused token means to the person who typed it. */
export function refusal(err: unknown): string {
  if (err instanceof ApiError && err.status === 403) {
    return 'Это не токен клиента. Панель открывается только с токеном клиента (HUB_CLIENT_TOKEN); токены агента и ассистента здесь не принимаются.';
  }
  if (err instanceof ApiError && err.status === 401) return 'Токен не подошёл: проверьте HUB_CLIENT_TOKEN.';
  return err instanceof ApiError ? err.detail : 'Не удалось проверить токен.';
}

/** With tokens: the client token, kept for this tab only. `check` asks the hub with it. */
export function SignIn({ check, message }: { check: () => Promise<void>; message?: string }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(message ?? null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    token.set(value.trim());
    try {
      await check();
    } catch (err) {
      token.clear();
      setError(refusal(err));
      setBusy(false);
    }
  };
  return (
    <div className="signin">
      <form className="panel form" onSubmit={submit}>
        <div className="brand brand-dark">
          <span className="logo">◆</span> Jira Hub
        </div>
        <h2>Вход</h2>
        <p className="muted">Хаб работает с токенами. Введите токен клиента — он хранится только в этой вкладке.</p>
        <label className="field">
          <span>Токен клиента</span>
          <input type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
        </label>
        {error && (
          <div className="error" role="alert">
            {error}
          </div>
        )}
        <button className="btn btn-primary" type="submit" disabled={busy || !value.trim()}>
          Войти
        </button>
      </form>
    </div>
  );
}
