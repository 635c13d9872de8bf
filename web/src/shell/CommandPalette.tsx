// Ctrl/Cmd+K: jump to any page, server, tool, resource or prompt. Lists of connected servers
// come from the query cache (fetched when the palette opens, if not cached yet). Choosing an
// entry only navigates; nothing is called.
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useQueries } from '@tanstack/react-query';
import { api } from '../api/client';
import { listKey } from '../api/queries';
import { openInInspector } from '../inspector/inspectorRoute';
import { useServers } from '../servers/store';
import { Modal } from '../ui/Modal';
import { PAGES, navigate } from '../ui/route';
import { PAGE_ICONS } from '../ui/pageIcons';
import { PAGE_LABELS } from './TopBar';

interface Entry {
  id: string;
  kind: string;
  label: string;
  detail?: string;
  go: () => void;
}

const MAX_SHOWN = 50;
const kinds = ['tools', 'resources', 'prompts'] as const;

function useEntries(): Entry[] {
  const { list } = useServers();
  const connected = useMemo(() => (list ?? []).filter((v) => v.status.state === 'connected').map((v) => v.config.name), [list]);
  const results = useQueries({
    queries: connected.flatMap((s) =>
      kinds.map((k) => ({
        queryKey: listKey(k, s),
        queryFn: () => (k === 'tools' ? api.tools(s).then((r) => r.tools ?? []) : k === 'resources' ? api.resources(s).then((r) => r.resources ?? []) : api.prompts(s).then((r) => r.prompts ?? [])),
      })),
    ),
  });
  return useMemo(() => {
    const out: Entry[] = PAGES.map((p) => ({ id: `page:${p}`, kind: 'page', label: PAGE_LABELS[p], go: () => navigate(p) }));
    for (const v of list ?? []) out.push({ id: `server:${v.config.name}`, kind: 'server', label: v.config.name, detail: v.status.state, go: () => navigate('servers', v.config.name) });
    connected.forEach((s, i) => {
      kinds.forEach((k, j) => {
        const data = (results[i * kinds.length + j]?.data ?? []) as { name?: string; uri?: string; title?: string }[];
        for (const it of data) {
          const key = k === 'resources' ? (it.uri ?? '') : (it.name ?? '');
          const kind = k === 'tools' ? 'tool' : k === 'resources' ? 'resource' : 'prompt';
          out.push({ id: `${kind}:${s}:${key}`, kind, label: it.title ?? it.name ?? key, detail: `${s} · ${key}`, go: () => openInInspector(k, s, key) });
        }
      });
    });
    return out;
  }, [list, connected, results]);
}

export function CommandPalette({ onClose }: { onClose: () => void }) {
  const entries = useEntries();
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const shown = useMemo(() => {
    const text = q.trim().toLowerCase();
    const words = text.split(/\s+/).filter(Boolean);
    // Best first: the exact name, then names that start with the text, then the rest.
    const rank = (e: Entry) => {
      const label = e.label.toLowerCase();
      const key = e.id.slice(e.id.lastIndexOf(':') + 1).toLowerCase();
      return label === text || key === text ? 0 : label.startsWith(text) || key.startsWith(text) ? 1 : label.includes(text) ? 2 : 3;
    };
    return entries
      .filter((e) => words.every((w) => `${e.kind} ${e.label} ${e.detail ?? ''}`.toLowerCase().includes(w)))
      .map((e, i) => ({ e, r: rank(e), i }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .slice(0, MAX_SHOWN)
      .map((x) => x.e);
  }, [entries, q]);
  const pick = (e: Entry | undefined) => {
    if (!e) return;
    onClose();
    e.go();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, Math.min(shown.length - 1, a + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(shown[active]);
    }
  };
  return (
    <Modal title="Go to…" onCancel={onClose} testId="command-palette">
      <input
        data-autofocus
        className="palette-input"
        placeholder="Page, server, tool, resource or prompt"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
        aria-label="Search everything"
        aria-controls="palette-list"
        aria-activedescendant={shown[active] ? `palette-${active}` : undefined}
        data-testid="palette-input"
      />
      <ul className="palette-list" id="palette-list" role="listbox" aria-label="Matches">
        {shown.map((e, i) => {
          const Icon = e.kind === 'page' ? PAGE_ICONS[e.id.slice(5) as keyof typeof PAGE_ICONS] : PAGE_ICONS[e.kind === 'server' ? 'servers' : e.kind === 'tool' ? 'tools' : e.kind === 'resource' ? 'resources' : 'prompts'];
          return (
            <li
              key={e.id}
              id={`palette-${i}`}
              role="option"
              aria-selected={i === active}
              className={`palette-item${i === active ? ' active' : ''}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(e)}
              data-testid="palette-item"
              data-id={e.id}
            >
              <Icon size={14} aria-hidden="true" />
              <span className="palette-label">{e.label}</span>
              <span className="palette-kind">{e.kind}</span>
              {e.detail && <span className="palette-detail mono">{e.detail}</span>}
            </li>
          );
        })}
        {shown.length === 0 && <li className="muted small pad">Nothing matches.</li>}
      </ul>
    </Modal>
  );
}
