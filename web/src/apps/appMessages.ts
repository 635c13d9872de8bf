// What a conversation lets apps post into it (`ui/message`, an OpenAI widget's
// `sendFollowUpMessage`, an MCP-UI `prompt`/`intent`). An app's message becomes a chat turn
// only after the user approves it in the app's frame, or after the user allowed that app
// for this chat session; every app is rate-limited, the conversation's queue is capped, and
// the text the model gets says which app sent it. This module owns the policy (no React, no
// UI); the frames ask the user (`AppMessageAsk.tsx`), the chat session delivers.

/** Which app is asking: `key` identifies it for "allow for this session" (server + resource). */
export interface AppIdentity {
  key: string;
  server: string;
  uri: string;
}

export function appIdentity(server: string, uri: string): AppIdentity {
  return { key: `${server}\n${uri}`, server, uri };
}

/** What a conversation offers apps that want to post into it. */
export interface AppMessageChannel {
  /** Why `app` may not post now (rate limit, too long), or null. Counts the attempt. */
  admit(app: AppIdentity, text: string, now?: number): string | null;
  /** Whether the user allowed `app` to post without asking, for this session. */
  allowed(app: AppIdentity): boolean;
  allow(app: AppIdentity): void;
  /** Sends `text` as the next user turn, labelled as coming from `app`; rejects with the
   * reason when the conversation cannot take it (its queue is full). */
  send(app: AppIdentity, text: string): Promise<void>;
}

export const APP_MESSAGE_LIMITS = {
  /** Messages one app may post per window (approved or not). */
  perApp: 5,
  windowMs: 60_000,
  maxChars: 20_000,
};

/** The user turn the model gets: provenance first, then the app's text. */
export function labelled(app: AppIdentity, text: string): string {
  return `[Message from the app ${app.uri} of server "${app.server}", sent with the user's approval]\n\n${text}`;
}

/** A channel for one chat session; `deliver` sends a turn or queues it (and rejects when its
 * queue is full). */
export function createAppMessageChannel(deliver: (text: string) => Promise<void>, limits = APP_MESSAGE_LIMITS): AppMessageChannel {
  const allowedApps = new Set<string>();
  const recent = new Map<string, number[]>();
  return {
    admit(app, text, now = Date.now()) {
      if (text.length > limits.maxChars) {
        return `The app's message has ${text.length} characters; at most ${limits.maxChars} are accepted.`;
      }
      const times = (recent.get(app.key) ?? []).filter((t) => now - t < limits.windowMs);
      if (times.length >= limits.perApp) {
        recent.set(app.key, times);
        return `The app ${app.uri} already posted ${times.length} messages in the last ${limits.windowMs / 1000} s; this one was refused.`;
      }
      times.push(now);
      recent.set(app.key, times);
      return null;
    },
    allowed: (app) => allowedApps.has(app.key),
    allow: (app) => void allowedApps.add(app.key),
    send: (app, text) => deliver(labelled(app, text)),
  };
}
