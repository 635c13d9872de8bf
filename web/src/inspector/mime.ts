// What a MIME type means for display: media types we render from data: URLs (only types that
// look like `type/subtype`), and which binary blobs are really text.
export function mediaType(mime: unknown, prefix: string): string | null {
  return typeof mime === 'string' && mime.toLowerCase().startsWith(prefix) && /^[\w.+-]+\/[\w.+-]+$/.test(mime) ? mime : null;
}

export function isTextMime(mime: string): boolean {
  const m = mime.toLowerCase().split(';')[0].trim();
  return (
    m.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|yaml|x-yaml|toml|sql|graphql|x-sh|x-www-form-urlencoded)$/.test(m) ||
    m.endsWith('+json') ||
    m.endsWith('+xml')
  );
}

export function base64Size(b64: string): number {
  const clean = b64.replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

/** Decodes base64 as UTF-8 text; null when it is not valid base64 or not valid UTF-8. */
export function decodeBase64Text(b64: string): string | null {
  try {
    const bin = atob(b64.replace(/\s/g, ''));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function parseJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}
