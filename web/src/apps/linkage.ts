// Which UI a tool renders (the same precedence as the server's `core::apps::linkage`):
// `_meta.ui.resourceUri`, the deprecated `"ui/resourceUri"`, then `openai/outputTemplate`;
// and a per-server cache of `tools/list` so the chat can look a called tool up by name
// (refreshed when the server announces `tools/list_changed` or reconnects).
import { useEffect, useState } from 'react';
import { api, type Tool } from '../api/client';
import { events } from '../api/events';

export type UiKind = 'mcpApp' | 'openaiWidget';

export interface UiLink {
  uri: string;
  kind: UiKind;
}

export function uiLink(tool: Tool | undefined | null): UiLink | null {
  const meta = (tool as { _meta?: Record<string, any> } | undefined)?._meta;
  if (!meta || typeof meta !== 'object') return null;
  const candidates: [unknown, UiKind][] = [
    [meta.ui?.resourceUri, 'mcpApp'],
    [meta['ui/resourceUri'], 'mcpApp'],
    [meta['openai/outputTemplate'], 'openaiWidget'],
  ];
  for (const [v, kind] of candidates) {
    if (typeof v === 'string' && v.trim()) return { uri: v.trim(), kind };
  }
  return null;
}

/** Whether a UI of `kind` may call `tool` (mirrors the server's `core::apps::app_may_call`,
 * which is what enforces it): MCP Apps need `"app"` visibility (absent means model and app);
 * OpenAI widgets need `openai/widgetAccessible` or an explicit `"app"`. */
export function appMayCall(tool: Tool, kind: UiKind): boolean {
  const meta = (tool as { _meta?: Record<string, any> })._meta ?? {};
  const visibility = Array.isArray(meta.ui?.visibility) ? (meta.ui.visibility as unknown[]) : null;
  if (kind === 'openaiWidget') return meta['openai/widgetAccessible'] === true || !!visibility?.includes('app');
  return visibility === null || visibility.includes('app');
}

/** MCP-UI (legacy) resources embedded in a tool result: `ui://` embedded resources. */
export function embeddedUiResources(result: unknown): Record<string, any>[] {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return [];
  return content
    .filter((b) => b && b.type === 'resource' && typeof b.resource?.uri === 'string' && b.resource.uri.startsWith('ui://'))
    .map((b) => b.resource);
}

const cache = new Map<string, Promise<Tool[]>>();
const listeners = new Set<() => void>();
let watching = false;

function watch(): void {
  if (watching) return;
  watching = true;
  const drop = (server?: string) => {
    if (server) cache.delete(server);
    else cache.clear();
    listeners.forEach((l) => l());
  };
  events.onServerEvent((e) => {
    if (e.type === 'listChanged' && e.list === 'tools') drop(e.server);
    if (e.type === 'status') drop(e.server);
  });
  events.onResync(() => drop());
}

export function serverTools(server: string): Promise<Tool[]> {
  watch();
  let p = cache.get(server);
  if (!p) {
    p = api.tools(server).then((r) => r.tools);
    p.catch(() => cache.delete(server));
    cache.set(server, p);
  }
  return p;
}

/** The `tools/list` entry of `server`'s tool `name` (undefined while loading or unknown). */
export function useServerTool(server: string, name: string): Tool | undefined {
  const [tool, setTool] = useState<Tool | undefined>(undefined);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    const l = () => setNonce((n) => n + 1);
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, []);
  useEffect(() => {
    if (!server) return;
    let live = true;
    serverTools(server).then(
      (tools) => live && setTool(tools.find((t) => t.name === name)),
      () => live && setTool(undefined),
    );
    return () => {
      live = false;
    };
  }, [server, name, nonce]);
  return tool;
}
