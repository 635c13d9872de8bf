// The shell: header (navigation, server selector, connection state, theme), the current
// page, the resizable traffic panel beside it, and human-in-the-loop dialogs over all.
import { useEffect, useState } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { UNAUTHORIZED_HINT, errorMessage, ApiFailure } from './api/client';
import { events, useStreamState } from './api/events';
import { ChatPage } from './chat/ChatPage';
import { PlaygroundPage } from './playground/PlaygroundPage';
import { HumanDialogs } from './human/HumanDialogs';
import { startHumanStore } from './human/store';
import { PromptsPage } from './inspector/PromptsPage';
import { ResourcesPage } from './inspector/ResourcesPage';
import { ToolsPage } from './inspector/ToolsPage';
import { LogsPage } from './logs/LogsPage';
import { startLogsStore } from './logs/store';
import { OAuthPage } from './oauth/OAuthPage';
import { ServerSelector } from './servers/ServerSelector';
import { ServersPage } from './servers/ServersPage';
import { startServersStore, useServers } from './servers/store';
import { SettingsPage } from './settings/SettingsPage';
import { SkillsPage } from './skills/SkillsPage';
import { TasksPage } from './tasks/TasksPage';
import { loadPrefs, setPref, usePref } from './settings/prefs';
import { nextTheme, useTheme } from './settings/theme';
import { TrafficPanel } from './traffic/TrafficPanel';
import { startTrafficStore } from './traffic/store';
import { Button } from './ui/Button';
import { ErrorState } from './ui/States';
import { PAGES, navigate, usePage, type Page } from './ui/route';

const LABELS: Record<Page, string> = { servers: 'Servers', tools: 'Tools', resources: 'Resources', prompts: 'Prompts', tasks: 'Tasks', skills: 'Skills', playground: 'Playground', chat: 'Chat', logs: 'Logs', oauth: 'OAuth', settings: 'Settings' };

function start() {
  events.start();
  startServersStore();
  startTrafficStore();
  startLogsStore();
  startHumanStore();
}

export function App() {
  const [boot, setBoot] = useState<{ state: 'loading' | 'ready' } | { state: 'error'; message: string; unauthorized: boolean }>({ state: 'loading' });
  const attempt = () => {
    setBoot({ state: 'loading' });
    loadPrefs().then(
      () => {
        start();
        setBoot({ state: 'ready' });
      },
      (e) => setBoot({ state: 'error', message: errorMessage(e), unauthorized: e instanceof ApiFailure && e.unauthorized }),
    );
  };
  useEffect(attempt, []);

  if (boot.state === 'error') {
    return (
      <div className="boot">
        <div className="brand">mcplab</div>
        <ErrorState
          title={boot.unauthorized ? 'Not signed in' : 'Cannot reach mcplab'}
          message={boot.message}
          onRetry={attempt}
          testId={boot.unauthorized ? 'unauthorized' : 'boot-error'}
        />
      </div>
    );
  }
  if (boot.state === 'loading') return <div className="boot" data-testid="booting" />;
  return <Shell />;
}

function Shell() {
  const page = usePage();
  const [theme, setTheme] = useTheme();
  const stream = useStreamState();
  const { list } = useServers();
  const trafficOpen = usePref<boolean>('trafficOpen', true);

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">mcplab</span>
        <nav className="nav" aria-label="Pages">
          {PAGES.map((p) => (
            <a key={p} href={`#/${p}`} className={page === p ? 'active' : ''} aria-current={page === p ? 'page' : undefined} data-testid={`nav-${p}`} onClick={() => navigate(p)}>
              {LABELS[p]}
              {p === 'servers' && list && <span className="nav-count">{list.length}</span>}
            </a>
          ))}
        </nav>
        <span className="spacer" />
        {(page === 'tools' || page === 'resources' || page === 'prompts' || page === 'tasks' || page === 'skills') && <ServerSelector />}
        {(stream === 'reconnecting' || stream === 'unauthorized') && (
          <span className={`stream-state stream-${stream}`} data-testid="stream-state" title={stream === 'unauthorized' ? UNAUTHORIZED_HINT : 'Live events'}>
            {stream === 'unauthorized' ? 'signed out' : 'reconnecting…'}
          </span>
        )}
        <Button small variant="ghost" onClick={() => setPref('trafficOpen', !trafficOpen)} aria-pressed={trafficOpen} data-testid="traffic-toggle">
          Traffic
        </Button>
        <Button small variant="ghost" onClick={() => setTheme(nextTheme(theme))} data-testid="theme-toggle" title={`Theme: ${theme} (click to change)`} aria-label={`Theme: ${theme}`}>
          {theme === 'system' ? '◐' : theme === 'light' ? '☀' : '☾'} {theme}
        </Button>
      </header>
      {stream === 'unauthorized' && (
        <div className="banner banner-error" role="alert" data-testid="unauthorized">
          {UNAUTHORIZED_HINT}
        </div>
      )}
      <Group orientation="horizontal" className="main-split" id="main-split">
        <Panel id="page" minSize="30%">
          <main className="page-wrap">
            {page === 'servers' && <ServersPage />}
            {page === 'tools' && <ToolsPage />}
            {page === 'resources' && <ResourcesPage />}
            {page === 'prompts' && <PromptsPage />}
            {page === 'tasks' && <TasksPage />}
            {page === 'skills' && <SkillsPage />}
            {page === 'playground' && <PlaygroundPage />}
            {page === 'chat' && <ChatPage />}
            {page === 'logs' && <LogsPage />}
            {page === 'oauth' && <OAuthPage />}
            {page === 'settings' && <SettingsPage />}
          </main>
        </Panel>
        {trafficOpen && (
          <>
            <Separator className="resize-handle resize-handle-v" />
            <Panel id="traffic" defaultSize="38%" minSize="20%">
              <TrafficPanel />
            </Panel>
          </>
        )}
      </Group>
      <HumanDialogs />
    </div>
  );
}
