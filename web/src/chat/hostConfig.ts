// Editing a session's HostConfig in the chat page, as pure functions: which tools a server
// offers (the same allow-then-deny rule as core's `ServerTools::offers`), toggling one, the
// host conditions apps in the chat render under (from the app host profile, its MCP Apps host
// capabilities included), which UI a host
// renders for a tool, and the export file. The server checks every change; nothing here decides what is valid.
import type { Tool } from '../api/client';
import type { HostConditions } from '../apps/host';
import { uiLink, type UiLink } from '../apps/linkage';
import { DEFAULT_APP_HOST, DEVICE_PRESETS, type AppHostProfile, type HostConfig, type ServerTools, type Viewer } from '../api/types.gen';

export const NO_FILTER: ServerTools = { allow: null, deny: [] };

/** Whether a tool is offered to models at all (core's `apps::visibility(..).model`; checked
 * against the shared vectors in modelRules.test.ts): `_meta.ui.visibility` must list
 * `"model"` (absent or malformed means both), and `openai/visibility: private` hides it. A
 * host without MCP Apps (`client.mcpApps: false`) ignores `_meta.ui`, as core's catalog does:
 * only `private` hides a tool there. */
export function modelVisible(tool: { _meta?: unknown }, host: { mcpApps: boolean } = { mcpApps: true }): boolean {
  const meta = (tool._meta ?? {}) as { ui?: { visibility?: unknown }; 'openai/visibility'?: unknown };
  const list = meta.ui?.visibility;
  const listed = !host.mcpApps || (Array.isArray(list) ? list.includes('model') : true);
  return listed && meta['openai/visibility'] !== 'private';
}

/** Whether the model may see `tool` of a server with this filter (before visibility rules). */
export function offers(filter: ServerTools | undefined, tool: string): boolean {
  const f = filter ?? NO_FILTER;
  return (f.allow === null || f.allow.includes(tool)) && !f.deny.includes(tool);
}

/** The filter with `tool` offered (`on`) or not. */
export function toggleTool(filter: ServerTools | undefined, tool: string, on: boolean): ServerTools {
  const f = filter ?? NO_FILTER;
  if (!on) return { ...f, deny: f.deny.includes(tool) ? f.deny : [...f.deny, tool].sort() };
  const allow = f.allow === null || f.allow.includes(tool) ? f.allow : [...f.allow, tool].sort();
  return { allow, deny: f.deny.filter((t) => t !== tool) };
}

/** The config with `server` offered (with every tool) or removed. */
export function toggleServer(config: HostConfig, server: string, on: boolean): HostConfig {
  const servers = { ...config.servers };
  if (on) servers[server] = servers[server] ?? NO_FILTER;
  else delete servers[server];
  return { ...config, servers };
}

/** The chosen servers in the user's order of the configured ones (`order`), any others after, by name. */
export function serverNames(config: HostConfig, order: readonly string[] = []): string[] {
  const place = (n: string) => {
    const i = order.indexOf(n);
    return i < 0 ? order.length : i;
  };
  return Object.keys(config.servers).sort((a, b) => place(a) - place(b) || a.localeCompare(b));
}

/** A chosen server as the "Tools from" summary sees it: its listed tools while connected. */
export interface ChosenServer {
  name: string;
  connected: boolean;
  tools: Tool[] | null;
}

/** "Tools from" in one line: `demo, 14 tools` for one server, `7 servers, 52 tools` for more,
 * counting the tools the model gets (filters and visibility applied); servers not connected
 * (tools unknown) are said apart. */
export function serversSummary(config: HostConfig, chosen: ChosenServer[]): string {
  if (chosen.length === 0) return 'no servers';
  const mcpApps = config.client?.mcpApps ?? true;
  const tools = chosen.reduce((n, s) => n + (s.tools ?? []).filter((t) => offers(config.servers[s.name], t.name) && modelVisible(t, { mcpApps })).length, 0);
  const away = chosen.filter((s) => !s.connected).length;
  const loading = chosen.some((s) => s.connected && s.tools === null);
  let text = chosen.length === 1 ? chosen[0].name : `${chosen.length} servers`;
  if (away < chosen.length) text += loading ? ', … tools' : `, ${tools} tool${tools === 1 ? '' : 's'}`;
  if (away > 0) text += chosen.length === 1 ? ' (not connected)' : ` (${away} not connected)`;
  return text;
}

export { DEFAULT_APP_HOST } from '../api/types.gen';

/** Whether the profile is the default one (apps then keep mcplab's own conditions). */
export function isDefaultAppHost(p: AppHostProfile): boolean {
  return JSON.stringify(p) === JSON.stringify(DEFAULT_APP_HOST);
}

/** The conditions apps render under for this profile, in its device's viewport; `viewer`
 * supplies what `null`/`system` leave to the person looking (their theme, locale and time zone).
 * Core's `HostConditions::for_app_host`: both are pinned by the shared vectors
 * (crates/mcplab-protocol/tests/vectors/host_conditions.json, hostConfig.test.ts). */
export function appConditions(p: AppHostProfile, viewer: Viewer): HostConditions {
  const device = DEVICE_PRESETS.find((d) => d.kind === p.device) ?? DEVICE_PRESETS[DEVICE_PRESETS.length - 1];
  const conditions: HostConditions = {
    theme: p.theme === 'system' ? viewer.theme : p.theme,
    locale: p.locale ?? viewer.locale,
    timeZone: p.timeZone ?? viewer.timeZone,
    platform: device.platform,
    deviceType: device.kind,
    hover: device.hover,
    touch: device.touch,
    safeArea: { top: 0, right: 0, bottom: 0, left: 0 },
    maxHeight: device.height,
    width: device.width,
    availableDisplayModes: [...p.displayModes],
    cspMode: p.cspMode,
    openaiShim: p.windowOpenai,
  };
  if (p.hostCapabilities) conditions.hostCapabilities = p.hostCapabilities;
  return conditions;
}

/** In a chat an app sits inline in the conversation: the column's width, and as high as it
 * asks (`size-changed`) up to the profile's limit, its device's viewport height (the host tells
 * the app that limit as `containerDimensions.maxHeight`; the frame shows a cue where the app is
 * taller). */
export function inChat(c: HostConditions): HostConditions {
  const inline: HostConditions = { ...c };
  delete inline.width;
  return inline;
}

/** `abcdef123456` of a hash, for display. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

/** The export file: the config as the server holds it (canonical keys, every default). */
export function exportFile(config: HostConfig, hash: string): { name: string; text: string } {
  return { name: `host-config-${shortHash(hash)}.json`, text: `${JSON.stringify(config, null, 2)}\n` };
}

/** The UI a host renders for `tool`: none of MCP Apps' when it does not implement them
 * (`client.mcpApps: false`), though an OpenAI widget template still renders where the host runs
 * `window.openai` widgets. */
export function linkForHost(tool: Tool | undefined | null, host: { mcpApps: boolean; windowOpenai: boolean }): UiLink | null {
  const link = uiLink(tool);
  if (!link || host.mcpApps) return link;
  if (!host.windowOpenai) return null;
  const template = (tool as { _meta?: Record<string, unknown> } | undefined)?._meta?.['openai/outputTemplate'];
  return typeof template === 'string' && template.trim() ? { uri: template.trim(), kind: 'openaiWidget' } : null;
}
