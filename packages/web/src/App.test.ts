import { describe, expect, it } from 'vitest';
import { withSettings, type Boot } from './App';
import { SETTINGS } from './test/support';

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
