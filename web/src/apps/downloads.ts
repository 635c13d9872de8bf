// The files an app asks the host to save (`ui/download-file`): embedded resources become
// named blobs (the name from the last URI segment, sanitized), then a download each. Resource
// links and anything unreadable are skipped; asking the user is the caller's job.

export interface Download {
  name: string;
  blob: Blob;
}

/** A saveable file from one `ui/download-file` content item, or null. */
export function downloadable(item: unknown): Download | null {
  const r = (item as { type?: unknown; resource?: Record<string, unknown> } | null)?.type === 'resource' ? (item as { resource: Record<string, unknown> }).resource : null;
  if (!r || typeof r.uri !== 'string') return null;
  const last = r.uri.split(/[/\\]/).filter(Boolean).pop() ?? 'download';
  const name = last.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'download';
  const type = typeof r.mimeType === 'string' ? r.mimeType : 'application/octet-stream';
  if (typeof r.text === 'string') return { name, blob: new Blob([r.text], { type }) };
  if (typeof r.blob === 'string') {
    try {
      const bin = atob(r.blob);
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      return { name, blob: new Blob([bytes], { type }) };
    } catch {
      return null;
    }
  }
  return null;
}

/** Saves one file through a temporary object URL (revoked once the browser has it). */
export function save(f: Download): void {
  const url = URL.createObjectURL(f.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = f.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
