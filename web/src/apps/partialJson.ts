// Best-effort parse of a JSON object that is still streaming (the model's tool arguments so
// far), for `ui/notifications/tool-input-partial`: the `partial-json` library closes the open
// string and brackets and drops a dangling key or comma. Only an object is arguments: anything
// else (an array, text that is not JSON) is null.
import { Allow, parse } from 'partial-json';

export function parsePartialJson(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = parse(text, Allow.ALL);
  } catch {
    return null;
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
