// What a person can do about an MCP failure, in this UI's terms. Core's messages say what
// happened and name no CLI flag; the advice that fits the web (a field in the server's
// settings, the traffic panel) is added here, keyed by the stable codes of `ApiError` and the
// kinds of a `CallOutcome` error (both listed in the protocol's `api.rs`).
import type { CallErrorKind } from './types.gen';

const ADVICE: Record<string, string> = {
  timeout: 'If the server is just slow, raise its request timeout: Servers → Edit → Request timeout (ms).',
  server_misbehaved: 'The server broke the protocol; its frames are in the traffic panel.',
  connection_lost: 'The connection to the server is gone; reconnect it on the Servers page.',
  transport: 'The connection to the server is gone; reconnect it on the Servers page.',
};

/** Advice for an `ApiError` code or a `CallErrorKind`, or null when the message says it all. */
export function adviceFor(code: string | CallErrorKind): string | null {
  return ADVICE[code] ?? null;
}

/** The message with the advice for its code appended (once). */
export function withAdvice(code: string, message: string): string {
  const advice = adviceFor(code);
  return advice && !message.includes(advice) ? `${message}\n${advice}` : message;
}
