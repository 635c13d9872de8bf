// The playground's keyboard shortcut: "r" runs the tool again, like a reload key. Only a bare
// "r" (no Ctrl, Cmd or Alt, so the browser's own reload is left alone) and only outside text
// fields, where "r" is typing. Must not know what a run is: it calls `rerun`.
import { useEffect } from 'react';

/** True when a key pressed on `target` is typing (an input, text area, select or editable). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Listens on the window while `enabled`; `rerun` is called for each "r". */
export function useRerunKey(enabled: boolean, rerun: () => void): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'r' || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      e.preventDefault();
      rerun();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, rerun]);
}
