// Which resources this page has subscribed to, per server, so the state survives switching
// between resources and pages.
const subs = new Set<string>();
const key = (server: string, uri: string) => `${server}\u0000${uri}`;

export function isSubscribed(server: string, uri: string): boolean {
  return subs.has(key(server, uri));
}

export function setSubscribed(server: string, uri: string, on: boolean): void {
  if (on) subs.add(key(server, uri));
  else subs.delete(key(server, uri));
}
