// Small helpers over what apps send (kept apart from the bridge so pages that only show app
// context do not load the ext-apps SDK).
type Json = Record<string, unknown>;

/** The text of MCP content blocks (what `ui/message` and model context carry). */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) {
    return content && typeof content === 'object' && typeof (content as Json).text === 'string' ? ((content as Json).text as string) : '';
  }
  return content
    .map((b) => (b && typeof b === 'object' && (b as Json).type === 'text' && typeof (b as Json).text === 'string' ? ((b as Json).text as string) : ''))
    .filter(Boolean)
    .join('\n');
}

/** Whether a URL may be opened from an app (after the user confirms). */
export function openableUrl(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' || u.protocol === 'mailto:' ? u : null;
  } catch {
    return null;
  }
}
