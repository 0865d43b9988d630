import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, withSettings, type Boot } from './App';
import { fakeFetch, SETTINGS } from './test/support';

afterEach(() => vi.unstubAllGlobals());

describe('withSettings', () => {
  it('keeps the state when the settings read again are the version shown (a resync must not reset unsaved edits)', () => {
    const boot: Boot = { kind: 'ready', settings: SETTINGS };
    expect(withSettings(boot, { ...SETTINGS })).toBe(boot);
  });

  it('takes a new version, and settings read while signing in or after a failure', () => {
    const newer = { ...SETTINGS, version: SETTINGS.version + 1 };
    expect(withSettings({ kind: 'ready', settings: SETTINGS }, newer)).toEqual({ kind: 'ready', settings: newer });
    expect(withSettings({ kind: 'loading' }, SETTINGS)).toEqual({ kind: 'ready', settings: SETTINGS });
    expect(withSettings({ kind: 'failed', error: new Error('x') }, SETTINGS)).toEqual({ kind: 'ready', settings: SETTINGS });
  });
});

describe('App', () => {
  it('every section of the menu is a page: none of them says «Страницы … нет» (the «Ассистент» page did)', async () => {
    fakeFetch({ 'GET /settings': SETTINGS, 'GET /audit': [], 'GET /batches': [], 'GET /packages': [] });
    window.location.hash = '#/audit';
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: 'Разделы' });
    const pages = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href')!);
    expect(pages).toContain('#/audit');
    for (const hash of pages) {
      await act(async () => {
        window.location.hash = hash;
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      });
      expect(within(nav).getByRole('link', { current: 'page' }).getAttribute('href')).toBe(hash);
      expect(screen.queryByText(/^Страницы «.*» нет\.$/)).toBeNull();
    }
  });

  it('an address of no page: «Не найдено», and no retry that could not help', async () => {
    fakeFetch({ 'GET /settings': SETTINGS, 'GET /batches': [] });
    window.location.hash = '#/nonexistent';
    render(<App />);
    expect(await screen.findByText('Страницы «nonexistent» нет.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Не найдено' })).toBeTruthy();
    expect(screen.queryByText('Попробовать снова')).toBeNull();
  });

  it.each([
    ['a batch', '#/batch/abc', 'Пакета «abc» нет: номер пакета — целое число, например #/batch/12.'], // it asked for /batches/NaN
    ['a planning package', '#/packages/abc', 'Пакета планирования «abc» нет: его номер — целое число, например #/packages/3.'], // it showed «пакетом #NaN»
  ])('%s address without a number says so, and asks nothing of the hub', async (_, hash, words) => {
    const calls = fakeFetch({ 'GET /settings': SETTINGS, 'GET /batches': [] });
    window.location.hash = hash;
    render(<App />);
    expect(await screen.findByText(words)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Не найдено' })).toBeTruthy();
    expect(screen.queryByText('Попробовать снова')).toBeNull();
    expect(screen.queryByText(/NaN/)).toBeNull();
    expect(calls.some((c) => c.url.includes('NaN'))).toBe(false);
  });
});
