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
    expect(screen.getByText('2 / 4 · 50 %')).toBeTruthy();

    act(() => live.send('batch', { change: 'created', batch_id: 3, batch: summary(3, { title: 'Новый пакет' }) }));
    expect(screen.getByText('Новый пакет')).toBeTruthy();
    expect(screen.getAllByRole('row')[1].textContent).toContain('Новый пакет'); // newest first

    act(() => live.send('command', { change: 'reported', batch_id: 1, batch: summary(1, { title: 'Сроки', status: 'done', counts: { done: 4 } }) }));
    expect(screen.getByText('4 / 4 · 100 %')).toBeTruthy();
  });

  it('filters by status through the API and keeps batches of other statuses out', async () => {
    const calls = fakeFetch({ 'GET /batches': [] });
    const { live } = renderWithHub(<QueuePage />);
    await screen.findByText('Пакетов пока нет.');
    fireEvent.click(screen.getByRole('button', { name: 'завершён' }));
    await screen.findByText('Пакетов в статусе «завершён» нет.');
    expect(calls.at(-1)!.url).toBe('/batches?status=done&limit=26');
    act(() => live.send('batch', { change: 'created', batch_id: 5, batch: summary(5, { title: 'В очереди' }) }));
    expect(screen.queryByText('В очереди')).toBeNull();
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
});
