import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, renderHook } from '@testing-library/react';
import { useRerunKey } from './useRerunKey';

describe('useRerunKey', () => {
  it('re-runs on a bare "r" and takes the key from the browser', () => {
    const rerun = vi.fn();
    renderHook(() => useRerunKey(true, rerun));
    const notPrevented = fireEvent.keyDown(document.body, { key: 'r' });
    expect(rerun).toHaveBeenCalledTimes(1);
    expect(notPrevented).toBe(false);
  });

  it('leaves other keys, modified "r" (the browser reload) and typing alone', () => {
    const rerun = vi.fn();
    renderHook(() => useRerunKey(true, rerun));
    const { getByTestId } = render(
      <div>
        <input data-testid="input" />
        <textarea data-testid="textarea" />
        <select data-testid="select" />
      </div>,
    );
    fireEvent.keyDown(document.body, { key: 'x' });
    for (const mod of ['ctrlKey', 'metaKey', 'altKey']) expect(fireEvent.keyDown(document.body, { key: 'r', [mod]: true })).toBe(true);
    for (const id of ['input', 'textarea', 'select']) fireEvent.keyDown(getByTestId(id), { key: 'r' });
    expect(rerun).not.toHaveBeenCalled();
  });

  it('listens only while enabled and until unmounted, with the newest callback', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender, unmount } = renderHook(({ on, f }) => useRerunKey(on, f), { initialProps: { on: false, f: first } });
    fireEvent.keyDown(document.body, { key: 'r' });
    expect(first).not.toHaveBeenCalled();
    rerender({ on: true, f: second });
    fireEvent.keyDown(document.body, { key: 'r' });
    expect(second).toHaveBeenCalledTimes(1);
    unmount();
    fireEvent.keyDown(document.body, { key: 'r' });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});
