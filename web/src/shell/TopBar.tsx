// The header: page navigation (a row of links on wide windows, a menu on narrow ones), the
// inspector's server selector, the event stream's state, and the traffic, theme and command
// palette buttons.
import { useEffect, useRef, useState } from 'react';
import { Menu, Monitor, Moon, PanelRight, Search, Sun } from 'lucide-react';
import { UNAUTHORIZED_HINT } from '../api/client';
import { useStreamState } from '../api/events';
import { ServerSelector } from '../servers/ServerSelector';
import { useServers } from '../servers/store';
import { nextTheme, useTheme } from '../settings/theme';
import { Button } from '../ui/Button';
import { untick } from '../ui/Ticks';
import { PAGE_ICONS } from '../ui/pageIcons';
import { PAGES, type Page } from '../ui/route';
import { NAV_MENU_QUERY, useMediaQuery } from '../ui/useMediaQuery';

export const PAGE_LABELS: Record<Page, string> = { servers: 'Servers', tools: 'Tools', resources: 'Resources', prompts: 'Prompts', tasks: 'Tasks', skills: 'Skills', playground: 'Playground', apps: 'Apps', chat: 'Chat', evals: 'Evals', check: 'Check', logs: 'Logs', oauth: 'OAuth', settings: 'Settings' };

function NavLinks({ page, onPick }: { page: Page; onPick?: () => void }) {
  const { list } = useServers();
  return (
    <>
      {PAGES.map((p) => {
        const Icon = PAGE_ICONS[p];
        return (
          <a key={p} href={`#/${p}`} className={page === p ? 'active' : ''} aria-current={page === p ? 'page' : undefined} data-testid={`nav-${p}`} onClick={onPick} title={PAGE_LABELS[p]}>
            <Icon size={15} aria-hidden="true" />
            <span className="nav-label">{PAGE_LABELS[p]}</span>
            {p === 'servers' && list && <span className="nav-count">{list.length}</span>}
          </a>
        );
      })}
    </>
  );
}

function NavMenu({ page }: { page: Page }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const Icon = PAGE_ICONS[page];
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) {
        setOpen(false);
        if (e instanceof KeyboardEvent) ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', close);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div className="nav-menu" ref={ref}>
      <Button small variant="ghost" onClick={() => setOpen(!open)} aria-expanded={open} aria-haspopup="true" data-testid="nav-menu" aria-label={`Pages: ${PAGE_LABELS[page]}`}>
        <Menu size={16} aria-hidden="true" />
        <Icon size={15} aria-hidden="true" />
        <span className="nav-menu-label">{PAGE_LABELS[page]}</span>
      </Button>
      {open && (
        <nav className="nav nav-popover" aria-label="Pages">
          <NavLinks page={page} onPick={() => setOpen(false)} />
        </nav>
      )}
    </div>
  );
}

/** `booting`: the prefs are not in yet — no server selector (it would save a choice over the
 * remembered one) and the traffic and palette buttons wait. */
export function TopBar({ page, booting, trafficOpen, onToggleTraffic, onPalette }: { page: Page; booting?: boolean; trafficOpen: boolean; onToggleTraffic: () => void; onPalette: () => void }) {
  const [theme, setTheme] = useTheme();
  const stream = useStreamState();
  const menu = useMediaQuery(NAV_MENU_QUERY);
  const ThemeIcon = theme === 'system' ? Monitor : theme === 'light' ? Sun : Moon;
  return (
    <header className="topbar">
      <h1 className="brand">mcplab</h1>
      {menu ? (
        <NavMenu page={page} />
      ) : (
        <nav className="nav" aria-label="Pages">
          <NavLinks page={page} />
        </nav>
      )}
      <span className="spacer" />
      {!booting && (page === 'tools' || page === 'resources' || page === 'prompts') && <ServerSelector page={page} />}
      {!booting && (page === 'tasks' || page === 'skills') && <ServerSelector />}
      {(stream === 'reconnecting' || stream === 'unauthorized') && (
        <span className={`stream-state stream-${stream}`} data-testid="stream-state" title={stream === 'unauthorized' ? untick(UNAUTHORIZED_HINT) : 'Live events'}>
          {stream === 'unauthorized' ? 'signed out' : 'reconnecting…'}
        </span>
      )}
      <Button small variant="ghost" onClick={onPalette} disabled={booting} data-testid="palette-open" title="Go to a page, server, tool, resource or prompt (Ctrl+K)" aria-keyshortcuts="Control+K Meta+K">
        <Search size={15} aria-hidden="true" />
        <span className="sr-only">Go to…</span>
        <kbd className="topbar-kbd">Ctrl K</kbd>
      </Button>
      <Button small variant="ghost" onClick={onToggleTraffic} disabled={booting} aria-pressed={trafficOpen} data-testid="traffic-toggle" title="Traffic panel" aria-label="Traffic">
        <PanelRight size={15} aria-hidden="true" />
        <span className="topbar-label">Traffic</span>
      </Button>
      <Button small variant="ghost" onClick={() => setTheme(nextTheme(theme))} data-testid="theme-toggle" title={`Theme: ${theme} (click to change)`} aria-label={`Theme: ${theme}`}>
        <ThemeIcon size={15} aria-hidden="true" />
      </Button>
    </header>
  );
}
