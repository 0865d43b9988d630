import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCoalesced } from './context';

afterEach(() => vi.useRealTimers());

describe('useCoalesced: reads that live events ask for, at most once per wait', () => {
  it('runs the first request at once and the requests made during the wait once when it ends', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const { result } = renderHook(() => useCoalesced(run, 500));
    result.current();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) result.current();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(499);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000); // nothing was asked meanwhile: nothing runs
    expect(run).toHaveBeenCalledTimes(2);
    result.current(); // idle again: at once
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('runs the latest function it was given, and nothing once the page is gone', () => {
    vi.useFakeTimers();
    const first = vi.fn();
    const second = vi.fn();
    const { result, rerender, unmount } = renderHook(({ run }) => useCoalesced(run, 500), { initialProps: { run: first } });
    result.current();
    result.current();
    rerender({ run: second });
    vi.advanceTimersByTime(500);
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 1]);
    result.current();
    unmount();
    vi.advanceTimersByTime(5000);
    expect(second).toHaveBeenCalledTimes(1);
  });
});
