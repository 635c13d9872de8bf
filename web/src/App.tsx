// The app: boot (the prefs and the servers list asked for by `boot.ts` at once; the stores start
// and take the held event stream once both are in) and the shell — header,
// the current page, the traffic panel (docked or overlay), the command palette and the
// human-in-the-loop dialogs over all. Every page but Servers loads on demand (the heavy parts:
// Playground and Chat with the apps host, Evals with its charts, OAuth, Settings), each inside a
// `PageBoundary` (a chunk that does not load shows an error with Reload, not a blank app): the
// first screen needs only the shell, the Servers page and the stores; the traffic panel follows
// its first frame (`shell/TrafficDock.tsx`).
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { UNAUTHORIZED_HINT, errorMessage, ApiFailure } from './api/client';
import { events, useStreamState } from './api/events';
import { useQueryInvalidation } from './api/queries';
import { HumanDialogs } from './human/HumanDialogs';
import { startHumanStore } from './human/store';
import { startCallsStore } from './inspector/calls';
import { startLogsStore } from './logs/store';
import { ServersPage } from './servers/ServersPage';
import { startServersStore } from './servers/store';
import { sessionSecret } from './api/auth';
import { bootQueryClient, takeBoot } from './boot';
import { PAGE_LABELS, TopBar } from './shell/TopBar';
import { TrafficDock } from './shell/TrafficDock';
import { startTrafficStore } from './traffic/store';
import { setTrafficOpen, useTrafficOpen } from './traffic/visibility';
import { PageBoundary } from './ui/PageBoundary';
import { Loading } from './ui/Spinner';
import { ErrorState } from './ui/States';
import { Ticks } from './ui/Ticks';
import { usePage, type Page } from './ui/route';
import { TRAFFIC_OVERLAY_QUERY, useMediaQuery } from './ui/useMediaQuery';

const named = <K extends string>(load: () => Promise<Record<K, React.ComponentType<{ active?: boolean }>>>, name: K) => lazy(() => load().then((m) => ({ default: m[name] })));
const ToolsPage = named(() => import('./inspector/ToolsPage'), 'ToolsPage');
const ResourcesPage = named(() => import('./inspector/ResourcesPage'), 'ResourcesPage');
const PromptsPage = named(() => import('./inspector/PromptsPage'), 'PromptsPage');
const TasksPage = named(() => import('./tasks/TasksPage'), 'TasksPage');
const SkillsPage = named(() => import('./skills/SkillsPage'), 'SkillsPage');
const LogsPage = named(() => import('./logs/LogsPage'), 'LogsPage');
const ChatPage = lazy(() => import('./chat/ChatPage').then((m) => ({ default: m.ChatPage })));
const EvalsPage = lazy(() => import('./evals/EvalsPage').then((m) => ({ default: m.EvalsPage })));
const PlaygroundPage = lazy(() => import('./playground/PlaygroundPage').then((m) => ({ default: m.PlaygroundPage })));
const AppsPage = lazy(() => import('./playground/AppsPage').then((m) => ({ default: m.AppsPage })));
const CheckPage = lazy(() => import('./check/CheckPage').then((m) => ({ default: m.CheckPage })));
const OAuthPage = lazy(() => import('./oauth/OAuthPage').then((m) => ({ default: m.OAuthPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
// Opened with Ctrl+K, not part of the first screen: its code loads on the first open.
const CommandPalette = lazy(() => import('./shell/CommandPalette').then((m) => ({ default: m.CommandPalette })));

const LANDED_HINT =
  'The authorization server sent this tab back to mcplab, and mcplab took the answer: the tab that started the sign-in shows the result. This tab is not signed in to mcplab (each tab signs in on its own), so you can close it.';

function start(queryClient: QueryClient) {
  events.start();
  startServersStore(queryClient);
  startTrafficStore();
  startLogsStore();
  startHumanStore();
  startCallsStore();
}

export function App() {
  const [boot, setBoot] = useState<{ state: 'loading' | 'ready' } | { state: 'error'; message: string; unauthorized: boolean }>({ state: 'loading' });
  const [queryClient] = useState(bootQueryClient);
  const attempt = useCallback(() => {
    setBoot({ state: 'loading' });
    takeBoot().then(
      () => {
        start(queryClient);
        events.release();
        setBoot({ state: 'ready' });
      },
      (e) => setBoot({ state: 'error', message: errorMessage(e), unauthorized: e instanceof ApiFailure && e.unauthorized }),
    );
  }, [queryClient]);
  useEffect(attempt, [attempt]);

  if (boot.state === 'error') {
    // A tab the authorization server sent back (`/oauth/callback` → `#/oauth/…`, `#/servers/…`)
    // that was opened without this page's sign-in: the result is in the tab that started it.
    const landed = boot.unauthorized && /^#\/(oauth|servers)\/./.test(window.location.hash);
    return (
      <div className="boot">
        <h1 className="brand">mcplab</h1>
        <ErrorState
          title={landed ? 'Sign-in finished' : boot.unauthorized ? 'Not signed in' : 'Cannot reach mcplab'}
          message={landed ? LANDED_HINT : boot.message}
          onRetry={attempt}
          testId={boot.unauthorized ? 'unauthorized' : 'boot-error'}
          prose
        />
      </div>
    );
  }
  // Signed in, the shell's header paints while the prefs and the list are on their way.
  if (boot.state === 'loading' && !sessionSecret()) return <div className="boot" data-testid="booting" />;
  return (
    <QueryClientProvider client={queryClient}>
      <Shell ready={boot.state === 'ready'} />
    </QueryClientProvider>
  );
}

const PAGE_COMPONENTS: Record<Page, (p: { active?: boolean }) => React.ReactNode> = {
  servers: ServersPage,
  tools: ToolsPage,
  resources: ResourcesPage,
  prompts: PromptsPage,
  tasks: TasksPage,
  skills: SkillsPage,
  playground: PlaygroundPage,
  apps: AppsPage,
  chat: ChatPage,
  evals: EvalsPage,
  check: CheckPage,
  logs: LogsPage,
  oauth: OAuthPage,
  settings: SettingsPage,
};

function usePaletteShortcut(open: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

/** Whether the Playground has been shown in this tab: from then on it stays mounted (hidden
 * behind other pages) so its running app, state and bridge log survive navigation. */
function useKeptPlayground(page: Page): boolean {
  const [kept, setKept] = useState(page === 'playground');
  if (page === 'playground' && !kept) setKept(true);
  return kept || page === 'playground';
}

/** The shell. Before `ready` (the prefs not in yet) only its header, without what reads or
 * writes prefs (the server selector, the traffic toggle, the palette): the first paint. */
function Shell({ ready }: { ready: boolean }) {
  const page = usePage();
  const keptPlayground = useKeptPlayground(page);
  const stream = useStreamState();
  const overlay = useMediaQuery(TRAFFIC_OVERLAY_QUERY);
  const trafficOpen = useTrafficOpen(page, overlay);
  const [palette, setPalette] = useState(false);
  useQueryInvalidation();
  usePaletteShortcut(() => setPalette(ready));
  const PageView = PAGE_COMPONENTS[page];
  const top = <TopBar page={page} booting={!ready} trafficOpen={trafficOpen} onToggleTraffic={() => setTrafficOpen(page, !trafficOpen, overlay)} onPalette={() => setPalette(ready)} />;
  if (!ready) {
    return (
      <div className="app" data-testid="booting">
        {top}
        <div className="main-single">
          <main className="page-wrap" />
        </div>
      </div>
    );
  }

  return (
    <div className="app">
      {top}
      {stream === 'unauthorized' && (
        <div className="banner banner-error" role="alert" data-testid="unauthorized">
          <Ticks text={UNAUTHORIZED_HINT} />
        </div>
      )}
      <TrafficDock page={page} open={trafficOpen} overlay={overlay}>
        {page !== 'playground' && (
          <PageBoundary key={page} what={`${PAGE_LABELS[page]} page`}>
            <Suspense fallback={<Loading />}>
              <PageView />
            </Suspense>
          </PageBoundary>
        )}
        {keptPlayground && (
          <div className="kept-page" hidden={page !== 'playground'}>
            <PageBoundary what="Playground page">
              <Suspense fallback={<Loading />}>
                <PlaygroundPage active={page === 'playground'} />
              </Suspense>
            </PageBoundary>
          </div>
        )}
      </TrafficDock>
      {palette && (
        <PageBoundary what="command palette">
          <Suspense fallback={null}>
            <CommandPalette onClose={() => setPalette(false)} />
          </Suspense>
        </PageBoundary>
      )}
      <HumanDialogs />
    </div>
  );
}
