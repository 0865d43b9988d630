import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, renderWithHub, SETTINGS } from '../test/support';
import { mergeDraft, patchOf, SettingsPage } from './Settings';

afterEach(() => vi.unstubAllGlobals());

const draft = () => ({
  pacing: Object.fromEntries(Object.entries(SETTINGS.pacing).map(([k, v]) => [k, String(v)])),
  interval: '0',
  jql: '',
  approval: { ...SETTINGS.approval! },
  linkTypes: Object.entries(SETTINGS.link_types),
  fields: '',
});

describe('the settings form', () => {
  it('leaves the limits to the hub, which says them in Russian: no browser bubble in its own language', async () => {
    fakeFetch({});
    const { container } = renderWithHub(<SettingsPage onSaved={() => undefined} />);
    expect((container.querySelector('form.settings') as HTMLFormElement).noValidate).toBe(true);
  });
});

describe('mergeDraft: settings changed elsewhere while the form is open', () => {
  it('an edit in progress stays; what the person did not touch shows the new values', () => {
    const before = draft();
    const edited = { ...before, pacing: { ...before.pacing, ensure_link: '42' } };
    const after = { ...before, pacing: { ...before.pacing, ensure_sprint: '9' }, jql: 'project = A' };
    const merged = mergeDraft(before, edited, after);
    expect(merged.pacing.ensure_link).toBe('42');
    expect(merged.pacing.ensure_sprint).toBe('9');
    expect(merged.jql).toBe('project = A');
  });

  it('an untouched form takes the new settings whole', () => {
    const before = draft();
    const after = { ...before, interval: '30', fields: 'Story Points' };
    expect(mergeDraft(before, before, after)).toEqual(after);
  });
});

describe('patchOf', () => {
  it('is empty when nothing changed', () => expect(patchOf(SETTINGS, draft())).toEqual({}));

  it('sends only what changed', () => {
    const d = draft();
    d.pacing.ensure_link = '45';
    d.jql = ' project = AURORA ';
    d.interval = '30';
    d.approval.client = true;
    d.linkTypes = [...d.linkTypes, ['дублирует', 'Duplicate'], ['', '']];
    d.fields = 'customfield_1, Story Points,';
    expect(patchOf(SETTINGS, d)).toEqual({
      pacing: { ensure_link: 45 },
      auto_refresh: { interval_minutes: 30, jql: 'project = AURORA' },
      approval: { assistant: true, client: true, hub: false },
      link_types: { блокирует: 'Blocks', связанные: 'Relates', дублирует: 'Duplicate' },
      fields: ['customfield_1', 'Story Points'],
    });
  });
});

describe('an empty number field', () => {
  it('is never sent as 0', () => {
    const d = draft();
    d.pacing.ensure_fields = '';
    d.interval = ' ';
    expect(patchOf(SETTINGS, d)).toEqual({});
    d.pacing.ensure_link = '45';
    expect(patchOf(SETTINGS, d)).toEqual({ pacing: { ensure_link: 45 } });
  });

  it('is a message in Russian under the field, and «Сохранить» sends nothing', async () => {
    const calls = fakeFetch({ 'PATCH /settings': SETTINGS });
    const onSaved = vi.fn();
    renderWithHub(<SettingsPage onSaved={onSaved} />);
    const pause = screen.getByRole('spinbutton', { name: /^поля/ });
    fireEvent.change(pause, { target: { value: '' } });
    expect(pause.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(pause.getAttribute('aria-describedby')!)?.textContent).toBe('Поле пустое: укажите паузу в секундах (0 — без паузы).');
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Не сохранено, хаб ничего не получил: не заполнено — пауза «поля»/);
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]); // fetch would have been called at the click
    expect(onSaved).not.toHaveBeenCalled();
    fireEvent.change(pause, { target: { value: '0' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ pacing: { ensure_fields: 0 } }));
  });
});

describe('an auto refresh interval without JQL', () => {
  it('is a message under the JQL field, and «Сохранить» sends nothing: the hub would store it and never refresh', async () => {
    const calls = fakeFetch({ 'PATCH /settings': SETTINGS });
    renderWithHub(<SettingsPage onSaved={() => undefined} />);
    fireEvent.change(screen.getByRole('spinbutton', { name: /^Раз в, минут/ }), { target: { value: '30' } });
    const jql = screen.getByRole('textbox', { name: /^JQL/ });
    expect(jql.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(jql.getAttribute('aria-describedby')!)?.textContent).toMatch(/^Укажите JQL/);
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Не сохранено, хаб ничего не получил: не заполнено — JQL автообновления. Впишите JQL или поставьте 0 минут.');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    fireEvent.change(jql, { target: { value: 'project = AURORA' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ auto_refresh: { interval_minutes: 30, jql: 'project = AURORA' } }));
  });

  it('stored so by another client, it keeps no other change from being saved', async () => {
    const stored = { ...SETTINGS, auto_refresh: { interval_minutes: 30, jql: null } };
    const calls = fakeFetch({ 'PATCH /settings': stored });
    renderWithHub(<SettingsPage onSaved={() => undefined} />, stored);
    expect(screen.getByRole('textbox', { name: /^JQL/ }).getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(screen.getByRole('spinbutton', { name: /^поля/ }), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ pacing: { ensure_fields: 0 } }));
  });
});
