// What a tool's annotations and `_meta` say, as badges.
import { metaUi, type Tool } from '../api/client';

export interface ToolBadge {
  key: string;
  label: string;
  title: string;
  tone?: 'warn' | 'info' | 'ok';
}

export function uiResourceUri(tool: Tool): string | undefined {
  const m = tool._meta ?? {};
  const uri = metaUi(m).resourceUri ?? m['ui/resourceUri'] ?? m['openai/outputTemplate'];
  return typeof uri === 'string' ? uri : undefined;
}

export function isAppOnly(tool: Tool): boolean {
  const vis = metaUi(tool._meta).visibility;
  return Array.isArray(vis) && !vis.includes('model');
}

export function toolBadges(tool: Tool): ToolBadge[] {
  const a = tool.annotations ?? {};
  const out: ToolBadge[] = [];
  if (a.readOnlyHint) out.push({ key: 'read-only', label: 'read-only', title: 'readOnlyHint: does not modify its environment', tone: 'ok' });
  if (a.destructiveHint) out.push({ key: 'destructive', label: 'destructive', title: 'destructiveHint: may perform destructive updates', tone: 'warn' });
  if (a.idempotentHint) out.push({ key: 'idempotent', label: 'idempotent', title: 'idempotentHint: repeated calls have no additional effect' });
  if (a.openWorldHint) out.push({ key: 'open-world', label: 'open-world', title: 'openWorldHint: interacts with external entities' });
  const ui = uiResourceUri(tool);
  if (ui) out.push({ key: 'ui', label: 'ui', title: `MCP Apps tool: renders ${ui}`, tone: 'info' });
  if (isAppOnly(tool)) out.push({ key: 'app-only', label: 'app-only', title: '_meta.ui.visibility lacks "model": hidden from the model', tone: 'info' });
  return out;
}

export function newCallId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `call-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
