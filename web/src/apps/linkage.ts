// Which UI a tool renders (the same precedence as the server's `core::apps::linkage`):
// `_meta.ui.resourceUri`, the deprecated `"ui/resourceUri"`, then `openai/outputTemplate`;
// and a server's tools by name from the shared TanStack Query cache (`['list', server,
// 'tools']`, the inspector's), so the chat and the app host look a called tool up without a
// cache of their own.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { metaUi, type EmbeddedContents, type Tool } from '../api/client';
import { listQuery } from '../api/queries';

export type UiKind = 'mcpApp' | 'openaiWidget';

export interface UiLink {
  uri: string;
  kind: UiKind;
}

/** Anything with a tool's `_meta` (a listed tool, or a call's record of one). */
type WithMeta = Partial<Tool>;

export function uiLink(tool: WithMeta | undefined | null): UiLink | null {
  const meta = tool?._meta;
  if (!meta || typeof meta !== 'object') return null;
  const candidates: [unknown, UiKind][] = [
    [metaUi(meta).resourceUri, 'mcpApp'],
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
export function appMayCall(tool: WithMeta, kind: UiKind): boolean {
  const meta = tool._meta ?? {};
  const vis = metaUi(meta).visibility;
  const visibility = Array.isArray(vis) ? (vis as unknown[]) : null;
  if (kind === 'openaiWidget') return meta['openai/widgetAccessible'] === true || !!visibility?.includes('app');
  return visibility === null || visibility.includes('app');
}

/** MCP-UI (legacy) resources embedded in a tool result: `ui://` embedded resources. */
export function embeddedUiResources(result: unknown): EmbeddedContents[] {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return [];
  return content
    .filter((b) => b && b.type === 'resource' && typeof b.resource?.uri === 'string' && b.resource.uri.startsWith('ui://'))
    .map((b) => b.resource);
}

/** `server`'s tools from the query cache (fetched once, then invalidated only by the event
 * stream: `tools/list_changed`, a reconnect, a resync), for code outside React. */
export function fetchServerTools(qc: QueryClient, server: string): Promise<Tool[]> {
  return qc.fetchQuery(listQuery('tools', server));
}

/** The `tools/list` entry of `server`'s tool `name` (undefined while loading or unknown). */
export function useServerTool(server: string, name: string): Tool | undefined {
  const q = useQuery({ ...listQuery('tools', server), enabled: !!server });
  return q.data?.find((t) => t.name === name);
}
