// What mcplab tells an app about its host: the honest `hostCapabilities` and the full
// `hostContext` built from the emulated host conditions (theme, style variables, locale, time
// zone, display modes, container size, platform, device capabilities, safe area, user agent).
// The transport between `AppBridge` and the sandbox proxy lives in `transport.ts`.
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';

export type { BridgeMessage } from './transport';

export type DisplayMode = 'inline' | 'fullscreen' | 'pip';
export const DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen', 'pip'];

export interface SafeArea {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The host an app is shown in: mcplab's own defaults, or an emulated device (playground). */
export interface HostConditions {
  theme: 'light' | 'dark';
  locale: string;
  timeZone: string;
  platform: 'web' | 'desktop' | 'mobile';
  deviceType: 'mobile' | 'tablet' | 'desktop';
  hover: boolean;
  touch: boolean;
  safeArea: SafeArea;
  /** Inline frame height limit in px; undefined = unbounded. */
  maxHeight?: number;
  /** Fixed frame width in px (emulated device); undefined = the available width. */
  width?: number;
  /** Modes the host offers. */
  availableDisplayModes: DisplayMode[];
  /** The mode the host puts the app in (the app may ask for another). */
  displayMode?: DisplayMode;
  cspMode: 'declared' | 'permissive';
  /** Inject the `window.openai` shim into MCP Apps too. */
  openaiShim: boolean;
  /** Host style variables to send instead of mcplab's own (`--color-background-primary`…). */
  styleOverrides?: Record<string, string>;
}

export const HOST_INFO = { name: 'mcplab', version: '0.1.0' };

/** The theme a preference means here: `system` follows the browser. */
export function resolveTheme(pref: string | null): 'light' | 'dark' {
  if (pref === 'light' || pref === 'dark') return pref;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function pageTheme(): 'light' | 'dark' {
  return resolveTheme(document.documentElement.getAttribute('data-theme'));
}

/** mcplab's own conditions: the page's theme and the browser's locale and input devices. */
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
    maxHeight: 640,
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

/** What the host really supports (every handler below exists). */
export function hostCapabilities(sandbox: { csp?: unknown; permissions?: unknown }): McpUiHostCapabilities {
  return {
    openLinks: {},
    downloadFile: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    updateModelContext: { text: {}, structuredContent: {} },
    message: { text: {} },
    sandbox: sandbox as McpUiHostCapabilities['sandbox'],
  };
}

export interface CspViolation {
  directive: string;
  blockedUri: string;
  sourceFile?: string | null;
  line?: number | null;
}
