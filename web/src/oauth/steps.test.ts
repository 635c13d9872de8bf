import { describe, expect, it } from 'vitest';
import type { OAuthDebugRun, OAuthHttpExchange, OAuthStep } from '../api/types.gen';
import { awaitingBrowser, failingStep, httpLabel, lanes, mergeStep, partyHosts, prettyBody, relativeTime, statusTone } from './steps';

const http = (p: Partial<OAuthHttpExchange> = {}): OAuthHttpExchange => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp',
  requestHeaders: [],
  requestBody: null,
  status: 200,
  responseHeaders: [],
  responseBody: null,
  error: null,
  durationMs: 3,
  ...p,
});

const step = (seq: number, p: Partial<OAuthStep> = {}): OAuthStep => ({
  seq,
  atMs: seq,
  kind: 'chose',
  phase: 'probe',
  title: `step ${seq}`,
  detail: null,
  from: 'client',
  to: 'client',
  http: null,
  data: null,
  fix: null,
  ...p,
});

const run = (steps: OAuthStep[], p: Partial<OAuthDebugRun> = {}): OAuthDebugRun => ({
  id: 'r1',
  request: { url: 'http://127.0.0.1:1/mcp', interactive: true },
  state: 'running',
  steps,
  result: null,
  failure: null,
  startedMs: 0,
  finishedMs: null,
  ...p,
});

describe('OAuth steps', () => {
  it('merges live steps by seq: replays change nothing, order is kept', () => {
    let s = mergeStep([], step(1));
    s = mergeStep(s, step(2));
    s = mergeStep(s, step(1, { title: 'again' }));
    s = mergeStep(s, step(4));
    s = mergeStep(s, step(3));
    expect(s.map((x) => [x.seq, x.title])).toEqual([
      [1, 'again'],
      [2, 'step 2'],
      [3, 'step 3'],
      [4, 'step 4'],
    ]);
  });

  it('lanes: only the parties that appear, mcplab first, in a fixed order', () => {
    expect(lanes([])).toEqual(['client']);
    expect(
      lanes([
        step(1, { to: 'authorizationServer', http: http() }),
        step(2, { to: 'mcpServer', http: http() }),
        step(3, { to: 'browser', kind: 'browser' }),
      ]),
    ).toEqual(['client', 'browser', 'mcpServer', 'authorizationServer']);
  });

  it('hosts per party come from the server URL and the HTTP steps', () => {
    const hosts = partyHosts([step(1, { to: 'authorizationServer', http: http({ url: 'https://as.example.com/.well-known/x' }) })], 'https://mcp.example.com/mcp');
    expect(hosts).toEqual({ mcpServer: 'mcp.example.com', authorizationServer: 'as.example.com' });
  });

  it('labels HTTP arrows with method and path, the query shortened', () => {
    expect(httpLabel(http())).toBe('GET /.well-known/oauth-protected-resource/mcp');
    expect(httpLabel(http({ url: 'http://as/authorize?response_type=code&x=1' }))).toBe('GET /authorize?…');
    expect([200, 303, 401, 500, null].map((status) => statusTone(http({ status })))).toEqual(['ok', 'info', 'warn', 'err', 'err']);
  });

  it('an interactive run waits for the browser while its browser step is the newest', () => {
    const browser = step(2, { kind: 'browser', to: 'browser', data: { authorizationUrl: 'http://as/authorize?x' } });
    expect(awaitingBrowser(run([step(1), browser]))).toBe('http://as/authorize?x');
    expect(awaitingBrowser(run([step(1), browser, step(3, { kind: 'browser' })]))).toBeNull();
    expect(awaitingBrowser(run([step(1), browser], { request: { url: 'x', interactive: false } }))).toBeNull();
    expect(awaitingBrowser(run([step(1), browser], { state: 'failed' }))).toBeNull();
  });

  it('finds the failing step', () => {
    expect(failingStep([step(1), step(2, { kind: 'failed' }), step(3)])?.seq).toBe(2);
    expect(failingStep([step(1)])).toBeUndefined();
  });

  it('pretty-prints JSON and form bodies', () => {
    expect(prettyBody('{"a":1}', [['Content-Type', 'application/json']])).toEqual({ text: '{\n  "a": 1\n}', kind: 'json' });
    expect(prettyBody('grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb', [['content-type', 'application/x-www-form-urlencoded']])).toEqual({
      text: 'grant_type=authorization_code\nredirect_uri=http://127.0.0.1/cb',
      kind: 'form',
    });
    expect(prettyBody('code=code… (13 chars)&client_id=c', [['content-type', 'application/x-www-form-urlencoded']]).text).toBe('code=code… (13 chars)\nclient_id=c');
    expect(prettyBody('{not json', [])).toEqual({ text: '{not json', kind: 'text' });
  });

  it('says when a token expires', () => {
    expect(relativeTime(3_599_000, 0)).toBe('in 60 min');
    expect(relativeTime(7_200_000, 0)).toBe('in 2 h');
    expect(relativeTime(0, 30_000)).toBe('30 s ago');
  });
});
