import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub } from '../test/support';
import { AuditPage, type AuditEntry } from './Audit';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: '2026-11-30T10:00:00.000Z',
  channel: 'mcp',
  tool: 'submit_batch',
  route: null,
  arguments: '{"title":"План"}',
  outcome: 'ok',
  status: null,
  detail: null,
  batch_id: 7,
  ...extra,
});

describe('AuditPage', () => {
  it("lists the assistant's calls with tool or route, arguments, outcome and batch, and pages on", async () => {
    const page = Array.from({ length: 3 }, (_, i) => entry(100 - i));
    page[1] = entry(99, { channel: 'rest', tool: null, route: 'POST /batches/:id/approve', outcome: 'forbidden', status: 403, batch_id: 7 });
    const calls = fakeFetch({ 'GET /audit': (_: unknown, url: string) => ({ body: url.includes('before_id') ? [entry(10, { tool: 'get_batch' })] : page }) });
    renderWithHub(<AuditPage pageSize={3} />);
    await screen.findByText('POST /batches/:id/approve');
    expect(screen.getByText('ошибка: запрещено этой роли')).toBeTruthy();
    expect(screen.getAllByText('MCP: submit_batch').length).toBe(2);
    expect(screen.queryByText('со слов MCP-сервера (stdio)')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    await screen.findByText('MCP: get_batch');
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/audit?before_id=98&limit=3'));
  });

  it('a double click on «Показать ещё» reads the next page once: no call is listed twice', async () => {
    const calls = fakeFetch({ 'GET /audit': (_: unknown, url: string) => ({ body: url.includes('before_id') ? [entry(10, { tool: 'get_batch' })] : [entry(12), entry(11)] }) });
    renderWithHub(<AuditPage pageSize={2} />);
    const more = await screen.findByRole('button', { name: 'Показать ещё' });
    fireEvent.click(more);
    fireEvent.click(more);
    await screen.findByText('MCP: get_batch');
    expect(calls.filter((c) => c.url.includes('before_id'))).toHaveLength(1);
    expect(screen.getAllByText('MCP: get_batch')).toHaveLength(1);
  });

  it('marks a tool call the stdio MCP server reported, and says an outcome code it does not know as it is', async () => {
    fakeFetch({ 'GET /audit': [entry(5, { channel: 'mcp_stdio', outcome: 'something_new', detail: 'подробности' }), entry(4, { outcome: 'invalid_arguments' })] });
    renderWithHub(<AuditPage />);
    await screen.findByText('со слов MCP-сервера (stdio)');
    expect(screen.getAllByText('MCP: submit_batch').length).toBe(2);
    expect(screen.getByText('ошибка: something_new').getAttribute('title')).toBe('something_new: подробности');
    expect(screen.getByText('ошибка: неверные аргументы инструмента')).toBeTruthy();
  });

  it('shows one batch’s calls when given the batch', async () => {
    const calls = fakeFetch({ 'GET /audit': [] });
    renderWithHub(<AuditPage batchId={7} />);
    await screen.findByText('Ассистент ещё ничего не вызывал.');
    expect(calls[0].url).toBe('/audit?batch_id=7&limit=50');
  });

  it.each([
    ['its own page', undefined],
    ['a batch page', 7],
  ])('on %s, says it is loading until the first page came, and «ничего не вызывал» only after the hub answered none', async (_, batchId) => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    renderWithHub(<AuditPage batchId={batchId} />);
    expect(screen.getByRole('status').textContent).toContain('Загрузка');
    expect(screen.queryByText('Ассистент ещё ничего не вызывал.')).toBeNull();
    answer(new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } }));
    await screen.findByText('Ассистент ещё ничего не вызывал.');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
