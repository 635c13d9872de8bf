// Whether the page has painted since it loaded: for parts that can wait (a Markdown parser for
// text already shown as it is), so they load and run after the first frame instead of delaying
// it. Once true it stays true for every later component (the page has painted). Must not render.
// A hidden tab paints nothing and runs no animation frames: there it is true at once.
import { useEffect, useState } from 'react';

// A fact about this page load, not state of one component.
let pagePainted = false;

export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(pagePainted);
  useEffect(() => {
    if (painted) return;
    if (document.visibilityState === 'hidden') {
      pagePainted = true;
      return setPainted(true);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame callback runs before the paint; a task queued from it runs after.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        pagePainted = true;
        setPainted(true);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [painted]);
  return painted;
}
