// What protocol 2026-07-28 and its extensions add to the API: tasks, skills, switching a
// server's protocol revision, and lists that say how fresh they are (cache hints, bypass).
import { request } from '../api/client';
import type { CallOutcome, ProtocolChoice, ServerView, SkillLoadView, TaskView } from '../api/types.gen';

const srv = (name: string) => `/api/servers/${encodeURIComponent(name)}`;

/** The cache facts of a merged list: the first page's hints and, when served from mcplab's cache, its age. */
export interface CacheInfo {
  ttlMs?: number;
  cacheScope?: string;
  cached?: { ageMs: number; ttlMs: number };
}

export function cacheInfo(listing: Record<string, unknown>): CacheInfo {
  return {
    ttlMs: typeof listing.ttlMs === 'number' ? listing.ttlMs : undefined,
    cacheScope: typeof listing.cacheScope === 'string' ? listing.cacheScope : undefined,
    cached: (listing['mcplab/cache'] as CacheInfo['cached']) ?? undefined,
  };
}

export const modernApi = {
  /** A server's list; `fresh` bypasses the 2026-07-28 cache. */
  list: <T>(name: string, path: string, fresh = false) =>
    request<Record<string, unknown> & T>('GET', `${srv(name)}/${path}${fresh ? '?fresh=true' : ''}`),
  tasks: (name: string) => request<TaskView[]>('GET', `${srv(name)}/tasks`),
  refreshTask: (name: string, id: string) => request<TaskView>('POST', `${srv(name)}/tasks/${encodeURIComponent(id)}/refresh`),
  cancelTask: (name: string, id: string) => request<CallOutcome>('POST', `${srv(name)}/tasks/${encodeURIComponent(id)}/cancel`),
  taskResult: (name: string, id: string) => request<CallOutcome>('POST', `${srv(name)}/tasks/${encodeURIComponent(id)}/result`),
  skills: (name: string) => request<{ skills: Skill[] }>('GET', `${srv(name)}/skills`),
  loadSkill: (name: string, uri: string) => request<SkillLoadView>('POST', `${srv(name)}/skills/load`, { uri }),
  switchProtocol: (name: string, protocol: ProtocolChoice) => request<ServerView>('POST', `${srv(name)}/protocol`, { protocol }),
};

/** A `skills/list` entry as the server sent it (SEP-2640). */
export interface Skill {
  uri: string;
  frontmatter: { name: string; description: string; [k: string]: unknown };
  resources: { uri: string; digest: string; size: number }[] | 'dynamic';
  _meta?: Record<string, unknown>;
}

/** Every revision a server can be spoken to in, for pickers. */
export const PROTOCOL_CHOICES: { value: ProtocolChoice; label: string }[] = [
  { value: 'auto', label: 'auto (server/discover, else initialize)' },
  { value: '2026-07-28', label: '2026-07-28 (modern)' },
  { value: '2025-11-25', label: '2025-11-25' },
  { value: '2025-06-18', label: '2025-06-18' },
  { value: '2025-03-26', label: '2025-03-26' },
];
