// Server log lines: `notifications/message` (log events) and stderr lines, newest last,
// kept since this page was opened (stderr history is seeded from the server views).
import { events } from '../api/events';
import type { ServerEvent, ServerView } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';

export interface LogEntry {
  n: number;
  ts: number;
  server: string;
  source: 'log' | 'stderr' | 'app';
  level: string;
  logger?: string;
  text: string;
}

const MAX = 20_000;
let n = 0;
export const logsStore = createStore<LogEntry[]>([]);

function push(entries: LogEntry[]): void {
  logsStore.set((prev) => {
    const next = prev.concat(entries);
    return next.length > MAX ? next.slice(next.length - MAX) : next;
  });
}

export function dataText(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data);
}

function onEvent(e: ServerEvent): void {
  if (e.type === 'log') {
    push([{ n: n++, ts: Date.now(), server: e.server, source: 'log', level: e.level, logger: e.logger ?? undefined, text: dataText(e.data) }]);
  } else if (e.type === 'stderr') {
    push([{ n: n++, ts: Date.now(), server: e.server, source: 'stderr', level: 'stderr', text: e.line }]);
  }
}

/** A `notifications/message` an app sent to its host (shown with the server's log). */
export function pushAppLog(server: string, level: string, logger: string, data: unknown): void {
  push([{ n: n++, ts: Date.now(), server, source: 'app', level, logger, text: dataText(data) }]);
}

/** Adds stderr lines the servers wrote before this page loaded. */
export function seedStderr(views: ServerView[]): void {
  if (logsStore.get().length) return;
  push(views.flatMap((v) => v.stderr.map((line) => ({ n: n++, ts: 0, server: v.config.name, source: 'stderr' as const, level: 'stderr', text: line }))));
}

export function clearLogs(): void {
  logsStore.set([]);
}

let started = false;
export function startLogsStore(): void {
  if (started) return;
  started = true;
  events.onServerEvent(onEvent);
}

export function useLogs(): LogEntry[] {
  return useStore(logsStore);
}

export const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
