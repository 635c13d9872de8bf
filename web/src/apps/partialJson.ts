// Best-effort parse of a JSON object that is still streaming (the model's tool arguments so
// far), for `ui/notifications/tool-input-partial`: close the open string, drop a dangling key
// or comma, and close the open brackets. Returns null when nothing usable can be made of it.

export function parsePartialJson(text: string): Record<string, unknown> | null {
  const t = text.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    /* still streaming */
  }
  // Try ever shorter prefixes, each completed; the first that parses wins.
  for (let end = t.length; end > 0 && t.length - end < 400; end--) {
    const completed = complete(t.slice(0, end));
    if (completed === null) continue;
    try {
      const v = JSON.parse(completed);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v;
    } catch {
      /* shorter */
    }
  }
  return null;
}

/** Closes the string and brackets left open by `prefix`, or null if it ends mid-escape. */
function complete(prefix: string): string | null {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of prefix) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') stack.pop();
  }
  if (escaped) return null;
  let out = prefix + (inString ? '"' : '');
  out = out.replace(/[,:]\s*$/, '');
  return out + stack.reverse().join('');
}
