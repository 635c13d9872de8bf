// A fake of mcplab's HTTP API for component tests: `fetch` is replaced by a table of answers
// per method and path, and every request is recorded, so a test can say what the page asked
// for and in what order. An answer list is used in turn, its last answer for every request
// after; a request nothing answers gets a 404 the page shows as an error. Tests only.
import { afterEach, beforeEach, vi } from 'vitest';

export interface Reply {
  status: number;
  body?: unknown;
  /** Held until this settles (to answer requests in another order than they were made). */
  after?: Promise<unknown>;
}

/** A 200 with `body` as JSON (204 without one). */
export const ok = (body?: unknown): Reply => ({ status: body === undefined ? 204 : 200, body });
/** An `ApiError` answer. */
export const fail = (status: number, message: string): Reply => ({ status, body: { code: 'test', message } });

export interface SeenCall {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeApi {
  calls: SeenCall[];
  /** Answers `method path` with `replies`, one per request, the last one for the rest. */
  on(method: string, path: string, ...replies: Reply[]): void;
  /** How many `method path` requests were made. */
  count(method: string, path: string): number;
}

/** Stubs `fetch` (undo with `vi.unstubAllGlobals()`). */
export function fakeApi(): FakeApi {
  const calls: SeenCall[] = [];
  const routes = new Map<string, Reply[]>();
  const answer = (key: string): Reply => {
    const list = routes.get(key);
    if (!list?.length) return fail(404, `the fake API has no answer for ${key}`);
    return list.length > 1 ? (list.shift() as Reply) : list[0];
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = String(input);
    calls.push({ method, path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const r = answer(`${method} ${path}`);
    if (r.after) await r.after;
    return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
  });
  return {
    calls,
    on: (method, path, ...replies) => void routes.set(`${method} ${path}`, replies),
    count: (method, path) => calls.filter((c) => c.method === method && c.path === path).length,
  };
}

/**
 * A fresh `fakeApi()` for each test of the file, undone after it (with any `vi.spyOn`), so a
 * test file states its set-up in one line. The object returned is the same throughout; its
 * fields are those of the current test's fake.
 */
export function fakeApiEachTest(): FakeApi {
  const api = {} as FakeApi;
  beforeEach(() => {
    Object.assign(api, fakeApi());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return api;
}
