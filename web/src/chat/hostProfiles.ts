// Host profiles in the chat page, as pure functions: a profile's host sections (client, tool
// catalog, tool results, approval, app host) applied over the session's HostConfig — its model,
// prompt, limits, servers and elicitation policy stay — (core's `profiles::apply_profile`), and
// which profile the session currently runs as, and which of the session's servers were connected
// with another client declaration than the session's host makes. The server owns the profiles
// and their diff.
import type { FieldSource, HostConfig, HostProfile, ServerView } from '../api/types.gen';

/** The sections a host profile decides. */
const SECTIONS = ['client', 'toolCatalog', 'toolResults', 'approval', 'appHost'] as const;

/** `config` run as `profile`: its host sections over the session's own settings. */
export function applyProfile(config: HostConfig, profile: HostProfile): HostConfig {
  const next: HostConfig = { ...config };
  for (const key of SECTIONS) {
    // Sections left out of a profile (at their defaults) are left out here too.
    if (profile.hostConfig[key] === undefined) delete next[key];
    else Object.assign(next, { [key]: profile.hostConfig[key] });
  }
  return next;
}

/** Sorted-key JSON, so two sections compare however their keys were written. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** The first profile whose host sections the config has, or null (a mix of its own). */
export function matchingProfile(config: HostConfig, profiles: HostProfile[]): HostProfile | null {
  return profiles.find((p) => SECTIONS.every((k) => canonical(applyProfile(config, p)[k]) === canonical(config[k]))) ?? null;
}

/** A field's source in words. */
export function sourceText(s: FieldSource | null | undefined): string {
  if (!s) return 'no source given';
  if (s === 'unknown') return "unknown (mcplab's default)";
  return `${s.url} (read ${s.read})${s.note ? ` — ${s.note}` : ''}`;
}

/** The client declaration (revision, capabilities) a profile name stands for; undefined: mcplab's own. */
function declarationOf(name: string | null | undefined, profiles: HostProfile[]): string {
  const p = name ? profiles.find((x) => x.name === name) : undefined;
  return canonical(p?.hostConfig.client ?? null);
}

/**
 * The session's connected servers that declared something else to the server than `config`'s host
 * does (connected as another profile, or as mcplab while the host declares less): reconnecting them
 * "as this host" is what makes the servers see this host.
 */
export function serversDeclaredOtherwise(config: HostConfig, servers: ServerView[], profiles: HostProfile[]): ServerView[] {
  const wanted = canonical(config.client ?? null);
  return servers.filter(
    (v) => v.config.name in config.servers && v.status.state === 'connected' && declarationOf(v.connectedAs, profiles) !== wanted,
  );
}
