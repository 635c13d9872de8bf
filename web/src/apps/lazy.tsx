// The apps host is loaded on demand: ext-apps, @mcp-ui/client and Remote DOM stay out of the
// first page load (most pages never render an app).
import { lazy, Suspense, type ComponentProps } from 'react';
import { Spinner } from '../ui/Spinner';

const AppFrameImpl = lazy(() => import('./AppFrame').then((m) => ({ default: m.AppFrame })));
const McpUiResourceImpl = lazy(() => import('./McpUiResource').then((m) => ({ default: m.McpUiResource })));

const loading = (
  <div className="muted small" data-testid="app-loading">
    <Spinner small /> loading the app host…
  </div>
);

export function AppFrame(props: ComponentProps<typeof AppFrameImpl>) {
  return (
    <Suspense fallback={loading}>
      <AppFrameImpl {...props} />
    </Suspense>
  );
}

export function McpUiResource(props: ComponentProps<typeof McpUiResourceImpl>) {
  return (
    <Suspense fallback={loading}>
      <McpUiResourceImpl {...props} />
    </Suspense>
  );
}
