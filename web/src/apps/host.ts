// What mcplab tells an app about its host: the `hostCapabilities` of the host profile it
// renders as (mcplab's own: everything it serves) and the full `hostContext` built from the
// emulated host conditions (theme, style variables, locale, time zone, display modes,
// container size, platform, device capabilities, safe area, user agent). The session refuses
// what the capabilities leave out (`refusal`). The transport between `AppBridge` and the
// sandbox proxy lives in `transport.ts`.
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { MCPLAB_HOST_CAPABILITIES, type AppHostCapabilities, type ContentModality, type DisplayMode, type HostConditions } from '../api/types.gen';

export type { BridgeMessage } from './transport';

export type { DisplayMode, HostConditions, SafeArea } from '../api/types.gen';
export const DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** mcplab's own host capabilities: everything the session serves (core's default). */
export { MCPLAB_HOST_CAPABILITIES };

export const HOST_INFO = { name: 'mcplab', version: '0.1.0' };

/** The theme a preference means here: `system` follows the browser. */
export function resolveTheme(pref: string | null): 'light' | 'dark' {
  if (pref === 'light' || pref === 'dark') return pref;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function pageTheme(): 'light' | 'dark' {
  return resolveTheme(document.documentElement.getAttribute('data-theme'));
}

/** The desktop preset's height (`DEVICE_PRESETS`; hostConfig.test.ts checks they agree),
 * written out so the first page load does not carry the presets table. */
export const DESKTOP_HEIGHT = 800;

/** mcplab's own conditions: the page's theme and the browser's locale and input devices; an
 * inline app as high as it asks up to the desktop preset's height (the default profile's
 * limit, so a chat under the default profile and one under an explicit desktop one agree). */
export function defaultConditions(): HostConditions {
  const mq = (q: string) => window.matchMedia?.(q).matches ?? false;
  return {
    theme: pageTheme(),
    locale: navigator.language || 'en-US',
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    platform: 'web',
    deviceType: 'desktop',
    hover: mq('(hover: hover)'),
    touch: mq('(pointer: coarse)'),
    safeArea: { top: 0, right: 0, bottom: 0, left: 0 },
    maxHeight: DESKTOP_HEIGHT,
    availableDisplayModes: [...DISPLAY_MODES],
    cspMode: 'declared',
    openaiShim: false,
  };
}

/** mcplab's palettes as spec style variables (fixed per theme, so an emulated theme gets its
 * own colours whatever the page's theme is). */
const PALETTES: Record<'light' | 'dark', Record<string, string>> = {
  light: {
    '--color-background-primary': '#ffffff',
    '--color-background-secondary': '#f4f5f8',
    '--color-text-primary': '#1d2330',
    '--color-text-secondary': '#5b6475',
    '--color-border-primary': '#dde1e8',
    '--color-ring-primary': '#3563e9',
  },
  dark: {
    '--color-background-primary': '#16181d',
    '--color-background-secondary': '#1d2027',
    '--color-text-primary': '#e3e6ec',
    '--color-text-secondary': '#9aa3b2',
    '--color-border-primary': '#2d323c',
    '--color-ring-primary': '#6b93ff',
  },
};

export function styleVariables(theme: 'light' | 'dark'): Record<string, string> {
  return {
    ...PALETTES[theme],
    '--font-sans': "system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, Cantarell, 'Noto Sans', sans-serif",
    '--font-mono': "ui-monospace, SFMono-Regular, 'SF Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
    '--border-radius-md': '6px',
  };
}

export interface ToolInfo {
  id?: string | number;
  tool: { name: string; [k: string]: unknown };
}

/** The full host context for `ui/initialize` and `host-context-changed`. */
export function hostContext(c: HostConditions, displayMode: DisplayMode, toolInfo?: ToolInfo): McpUiHostContext {
  const containerDimensions: Record<string, number> = {};
  if (displayMode === 'inline') {
    if (c.maxHeight !== undefined) containerDimensions.maxHeight = c.maxHeight;
    if (c.width !== undefined) containerDimensions.width = c.width;
  } else if (displayMode === 'fullscreen') {
    containerDimensions.height = c.width !== undefined && c.maxHeight !== undefined ? c.maxHeight : window.innerHeight;
    containerDimensions.width = c.width ?? window.innerWidth;
  } else {
    containerDimensions.maxHeight = 320;
    containerDimensions.width = 360;
  }
  const ctx: McpUiHostContext & Record<string, unknown> = {
    theme: c.theme,
    styles: { variables: { ...styleVariables(c.theme), ...(c.styleOverrides ?? {}) } } as McpUiHostContext['styles'],
    displayMode,
    availableDisplayModes: c.availableDisplayModes,
    containerDimensions: containerDimensions as McpUiHostContext['containerDimensions'],
    locale: c.locale,
    timeZone: c.timeZone,
    userAgent: `mcplab/${HOST_INFO.version}`,
    platform: c.platform,
    deviceCapabilities: { touch: c.touch, hover: c.hover },
    safeAreaInsets: { ...c.safeArea },
    // Not in the spec's schema (it allows extra keys): the `window.openai` shim reads it.
    deviceType: c.deviceType,
  };
  if (toolInfo) ctx.toolInfo = toolInfo as McpUiHostContext['toolInfo'];
  return ctx;
}

/** The `hostCapabilities` of `ui/initialize`: exactly what the profile `caps` advertises, with
 * the sandbox the host granted this resource. */
export function hostCapabilities(sandbox: { csp?: unknown; permissions?: unknown }, caps: AppHostCapabilities = MCPLAB_HOST_CAPABILITIES): McpUiHostCapabilities {
  const out: McpUiHostCapabilities = { sandbox: sandbox as McpUiHostCapabilities['sandbox'] };
  if (caps.openLinks) out.openLinks = {};
  if (caps.downloadFile) out.downloadFile = {};
  if (caps.serverTools !== 'off') out.serverTools = caps.serverTools === 'listChanged' ? { listChanged: true } : {};
  if (caps.serverResources !== 'off') out.serverResources = caps.serverResources === 'listChanged' ? { listChanged: true } : {};
  if (caps.logging) out.logging = {};
  if (caps.message) out.message = modalities(caps.message);
  if (caps.updateModelContext) out.updateModelContext = modalities(caps.updateModelContext);
  return out;
}

function modalities(kinds: ContentModality[]): Record<string, object> {
  return Object.fromEntries(kinds.map((k) => [k, {}]));
}

/** The content kind of one block an app sent (`resource_link` → `resourceLink`). */
function kindOf(block: unknown): string {
  const t = (block as { type?: unknown } | null)?.type;
  return t === 'resource_link' ? 'resourceLink' : String(t);
}

/** Why a request the app made is not served under `caps` (null: it is): the capability it
 * needs was not advertised, or it carries content kinds the host did not name. */
export function refusal(caps: AppHostCapabilities, method: string, params: Record<string, unknown> = {}): string | null {
  const missing = (key: string) => `this host does not advertise hostCapabilities.${key}`;
  switch (method) {
    case 'ui/open-link':
      return caps.openLinks ? null : missing('openLinks');
    case 'ui/download-file':
      return caps.downloadFile ? null : missing('downloadFile');
    case 'tools/call':
    case 'tools/list':
      return caps.serverTools === 'off' ? missing('serverTools') : null;
    case 'resources/read':
    case 'resources/list':
    case 'resources/templates/list':
      return caps.serverResources === 'off' ? missing('serverResources') : null;
    case 'ui/message':
    case 'ui/update-model-context': {
      const key = method === 'ui/message' ? 'message' : 'updateModelContext';
      const kinds = caps[key];
      if (!kinds) return missing(key);
      // Advertised with no kind named (`{}`, as ChatGPT does): nothing to hold the content to.
      if (kinds.length === 0) return null;
      const sent = ((params.content as unknown[] | undefined) ?? []).map(kindOf);
      if (params.structuredContent !== undefined) sent.push('structuredContent');
      const bad = sent.find((k) => !(kinds as string[]).includes(k));
      return bad ? `this host's hostCapabilities.${key} does not name \`${bad}\` content` : null;
    }
    default:
      return null;
  }
}

export interface CspViolation {
  directive: string;
  blockedUri: string;
  sourceFile?: string | null;
  line?: number | null;
}
