import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub } from '../test/support';
import { CatalogueAge } from './CatalogueAge';

afterEach(() => vi.unstubAllGlobals());

const state = (extra: object = {}) => ({
  project_key: 'AURORA',
  synced_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  stale: false,
  stale_reason: null,
  max_age_minutes: 1440,
  text: 'Каталог Jira проекта AURORA прочитан 5 мин назад.',
  ...extra,
});

describe('CatalogueAge', () => {
  it("shows the catalogue's age and asks for a refresh with the button", async () => {
    const calls = fakeFetch({ 'GET /catalogue': state(), 'POST /catalogue/refresh': { id: 42 } });
    renderWithHub(<CatalogueAge />);
    await screen.findByText('прочитан 5 мин назад');
    expect(screen.getByText('свежий')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Обновить каталог' }));
    await screen.findByText('пакет #42');
    expect(calls.some((c) => c.method === 'POST' && c.url === '/catalogue/refresh')).toBe(true);
    expect((screen.getByRole('button', { name: 'Обновить каталог' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('when the refresh asked for finishes, it shows the catalogue read and can be asked for again', async () => {
    let read = state();
    fakeFetch({ 'GET /catalogue': () => ({ body: read }), 'POST /catalogue/refresh': { id: 42 } });
    const { live } = renderWithHub(<CatalogueAge />);
    await screen.findByText('прочитан 5 мин назад');
    fireEvent.click(screen.getByRole('button', { name: 'Обновить каталог' }));
    await screen.findByText('пакет #42');
    read = state({ synced_at: new Date().toISOString() });
    live.send('batch', { change: 'updated', batch_id: 42, batch: { id: 42, status: 'done' } });
    await screen.findByText('прочитан только что');
    expect(screen.queryByText('пакет #42')).toBeNull();
    expect((screen.getByRole('button', { name: 'Обновить каталог' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says when it is stale and why, and when there is none yet', async () => {
    fakeFetch({ 'GET /catalogue': state({ stale: true, stale_reason: 'команда #7 (ensure_fields): HTTP 400: …' }) });
    const { unmount } = renderWithHub(<CatalogueAge />);
    await screen.findByText('устарел');
    expect(screen.getByText('команда #7 (ensure_fields): HTTP 400: …')).toBeTruthy();
    unmount();
    fakeFetch({ 'GET /catalogue': state({ project_key: null, synced_at: null }) });
    renderWithHub(<CatalogueAge />);
    await screen.findByText('ещё не прочитан: проверки планов по нему не выполняются');
  });
});
