// What a page (or the traffic panel, or the palette) shows instead of a blank app when it fails
// to render: most often its code chunk did not load (mcplab restarted with a new build, the
// network to it dropped), which only a reload mends; otherwise the error it threw. Either way the
// rest of the shell keeps working and a Reload button is there. Keyed by page in the shell, so
// going to another page leaves the failure behind.
import { Component, type ReactNode } from 'react';
import { ErrorState } from './States';

/** Browsers' words for a dynamic `import()` that failed (Chromium, Firefox, Safari). */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

export function isChunkFailure(e: unknown): boolean {
  return e instanceof Error && CHUNK_FAILED.test(e.message);
}

export class PageBoundary extends Component<{ what: string; children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    const chunk = isChunkFailure(error);
    return (
      <ErrorState
        title={chunk ? `The ${this.props.what}'s code did not load` : `The ${this.props.what} failed`}
        message={
          chunk
            ? `mcplab did not send this part of the UI (${(error as Error).message}). Is mcplab still running, or was it restarted with a new build? Reload the page to fetch it again.`
            : `${error instanceof Error ? error.message : String(error)}. Reload the page; if it happens again, the message above is what to report.`
        }
        onRetry={() => window.location.reload()}
        retryLabel="Reload"
        testId="page-failed"
        prose
      />
    );
  }
}
