import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub, summary } from '../test/support';
import { QueuePage } from './Queue';

afterEach(() => vi.unstubAllGlobals());

describe('QueuePage', () => {
  it('lists batches with status, progress, source and approval, and applies live events', async () => {
    fakeFetch({
      'GET /batches': [
        summary(2, { title: 'План ассистента', source: 'assistant', status: 'awaiting_approval', author: 'assistant' }),
        summary(1, { title: 'Сроки', status: 'running', counts: { queued: 1, claimed: 1, done: 2 } }),
      ],
    });
    const { live } = renderWithHub(<QueuePage />);
    await screen.findByText('План ассистента');
    expect(screen.getAllByText('ждёт одобрения').length).toBeGreaterThan(1); // the chip and the approval column
    expect(screen.getByText('ассистент')).toBeTruthy();
    expect(screen.getByText('после одобрения')).toBeTruthy();
    expect(screen.getByText('2 ✓ · 1 у агента · 1 в очереди')).toBeTruthy();

    act(() => live.send('batch', { change: 'created', batch_id: 3, batch: summary(3, { title: 'Новый пакет' }) }));
    expect(screen.getByText('Новый пакет')).toBeTruthy();
    expect(screen.getAllByRole('row')[1].textContent).toContain('Новый пакет'); // newest first

    act(() => live.send('command', { change: 'reported', batch_id: 1, batch: summary(1, { title: 'Сроки', status: 'done', counts: { done: 4 } }) }));
    expect(screen.getByText('4 ✓')).toBeTruthy();
  });

  it('filters by status through the API and keeps batches of other statuses out', async () => {
    const calls = fakeFetch({ 'GET /batches': [] });
    const { live } = renderWithHub(<QueuePage />);
    await screen.findByText('Пакетов пока нет.');
    fireEvent.click(screen.getByRole('button', { name: 'завершены' }));
    await screen.findByText('Пакетов в статусе «завершён» нет.');
    expect(screen.getByRole('button', { name: 'завершены' }).getAttribute('aria-pressed')).toBe('true');
    expect(calls.at(-1)!.url).toBe('/batches?status=done&limit=26');
    act(() => live.send('batch', { change: 'created', batch_id: 5, batch: summary(5, { title: 'В очереди' }) }));
    expect(screen.queryByText('В очереди')).toBeNull();
  });

  it('the «с ошибками» tab lists the done batches with a failed or skipped command, with their count, and keeps clean ones out as they finish', async () => {
    const calls = fakeFetch({
      'GET /batches': (_: unknown, url: string) => ({ body: url.includes('done_with_errors') ? [summary(7, { title: 'С ошибкой', status: 'done', counts: { done: 4, failed: 1 } })] : [] }),
      'GET /batches/counts': { all: 3, awaiting_approval: 0, queued: 0, running: 0, done: 2, done_with_errors: 1, cancelled: 1, failed_commands: 1 },
    });
    const { live } = renderWithHub(<QueuePage />);
    await screen.findByText('Пакетов пока нет.');
    const tab = screen.getByRole('button', { name: /^с ошибками/ });
    await waitFor(() => expect(tab.textContent).toBe('с ошибками 1'));
    fireEvent.click(tab);
    await screen.findByText('С ошибкой');
    expect(calls.at(-1)!.url).toBe('/batches?status=done_with_errors&limit=26');
    act(() => live.send('batch', { change: 'progress', batch_id: 8, batch: summary(8, { title: 'Чистый', status: 'done', counts: { done: 3 } }) }));
    act(() => live.send('batch', { change: 'progress', batch_id: 9, batch: summary(9, { title: 'Тоже с ошибкой', status: 'done', counts: { done: 2, skipped: 1 } }) }));
    expect(screen.queryByText('Чистый')).toBeNull();
    expect(screen.getByText('Тоже с ошибкой')).toBeTruthy();
  });

  it('tells a batch finished with a failure from a clean one, with counts per tab and the failed commands first', async () => {
    fakeFetch({
      'GET /batches': [summary(7, { title: 'С ошибкой', status: 'done', counts: { done: 4, failed: 1, skipped: 1 } }), summary(6, { title: 'Отклонён', status: 'cancelled', rejected_reason: 'не тот спринт', counts: { cancelled: 2 } })],
      'GET /batches/counts': { all: 2, awaiting_approval: 0, queued: 0, running: 0, done: 1, done_with_errors: 1, cancelled: 1, failed_commands: 1 },
      'GET /commands': [{ id: 70, batch_id: 7, seq: 2, type: 'ensure_sprint', params: { key: 'A-7', sprint: 'S' }, status: 'failed', error: 'HTTP 404: нет', finished_at: '2026-11-30T10:00:00Z', batch_title: 'С ошибкой' }],
    });
    renderWithHub(<QueuePage />);
    await screen.findByText('С ошибкой');
    expect(screen.getByText('завершён с ошибками')).toBeTruthy();
    expect(screen.getByText('4 ✓ · 1 ✗ · 1 пропущена')).toBeTruthy();
    expect(screen.getByText('отклонён')).toBeTruthy();
    const failed = await screen.findByRole('button', { name: /ошибки/ });
    await waitFor(() => expect(failed.textContent).toBe('ошибки 1'));
    expect(screen.getAllByRole('button')[0]).toBe(failed); // failures first
    fireEvent.click(failed);
    await screen.findByText('HTTP 404: нет');
  });

  it('pages on with before_id', async () => {
    const page = Array.from({ length: 26 }, (_, i) => summary(100 - i));
    const calls = fakeFetch({ 'GET /batches': (_: unknown, url: string) => ({ body: url.includes('before_id') ? [summary(74)] : page }) });
    renderWithHub(<QueuePage />);
    await screen.findByText('Пакет 100');
    expect(screen.queryByText('Пакет 75')).toBeNull(); // the 26th only says there is more
    fireEvent.click(screen.getByRole('button', { name: 'Старее →' }));
    await screen.findByText('Пакет 74');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/batches?limit=26&before_id=76'));
  });

  it('keeps the list when the tab already pressed is pressed again (no live event comes to bring it back)', async () => {
    if (window.location.hash !== '#/queue?tab=done') {
      const moved = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
      window.location.hash = '#/queue?tab=done';
      await moved;
    }
    fakeFetch({ 'GET /batches': [summary(4, { title: 'Готовый', status: 'done', counts: { done: 2 } })] });
    renderWithHub(<QueuePage />);
    await screen.findByText('Готовый');
    const tab = screen.getByRole('button', { name: 'завершены' });
    expect(tab.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(tab);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a hashchange, if any, and a reload, if any, have come
    expect(screen.queryByText('Загрузка…')).toBeNull();
    expect(screen.getByText('Готовый')).toBeTruthy();
  });
});
