// Copying and downloading: `copyText` (the Clipboard API, with a textarea fallback), a Copy
// button that says "Copied" for a moment, and `download` (a string offered as a file).
import { useState } from 'react';
import { Button } from './Button';

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context; 127.0.0.1 is one, but fall back anyway.
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

export function CopyButton({ text, label = 'Copy', testId }: { text: () => string; label?: string; testId?: string }) {
  const [done, setDone] = useState(false);
  return (
    <Button
      small
      variant="ghost"
      data-testid={testId}
      onClick={async () => {
        if (await copyText(text())) {
          setDone(true);
          setTimeout(() => setDone(false), 1200);
        }
      }}
    >
      {done ? 'Copied' : label}
    </Button>
  );
}

/** Offers `data` as a file download. */
export function download(filename: string, data: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
