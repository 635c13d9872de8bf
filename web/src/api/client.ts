// The one typed client for mcplab's HTTP API. Every request goes through `request`, which
// sends the tab's session secret as a bearer (auth.ts; never a cookie), decodes `ApiError`
// bodies and turns transport failures into `ApiFailure`s with a message a person can act on.
import type { z } from 'zod';
import type {
  CallToolResultSchema,
  ContentBlockSchema,
  CreateMessageRequestParamsSchema,
  ElicitRequestParamsSchema,
  EmbeddedResourceSchema,
  GetPromptResultSchema,
  InitializeResultSchema,
  PromptSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ToolSchema,
} from '@modelcontextprotocol/core';
import { withAdvice } from './advice';
import { authHeaders } from './auth';
import type {
  AppRenderSpec,
  ApprovalDecision,
  ApiError,
  CallOutcome,
  CheckExport,
  CheckExported,
  CheckReport,
  CheckRequest,
  CompareGroup,
  CompleteRequest,
  HumanAnswer,
  HumanRequest,
  ImportResult,
  NewCompare,
  NewSession,
  OtlpSettings,
  PromptGetRequest,
  ProviderInput,
  ProviderView,
  RootView,
  ServerConfig,
  ServerView,
  SessionPatch,
  SessionSummary,
  SessionView,
  StepXray,
  TapOpened,
  TapSessionView,
  ToolCallRequest,
  ToolCallView,
  ToolFindings,
  TrafficFrame,
  TrafficSnapshotView,
} from './types.gen';

export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
  get unauthorized(): boolean {
    return this.status === 401 || this.code === 'unauthorized';
  }
}

export const UNAUTHORIZED_HINT =
  'This tab is not signed in to mcplab. Open the newest URL mcplab printed in the terminal, or run `mcplab open` (each URL works once, for 2 minutes).';

/** `signal` aborts the request (the connection is closed): it then rejects with the abort. */
export async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? authHeaders() : { ...authHeaders(), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiFailure(0, 'network', `Cannot reach mcplab (${(e as Error).message}). Is it still running?`);
  }
  if (!res.ok) {
    let err: ApiError | null = null;
    try {
      err = (await res.json()) as ApiError;
    } catch {
      /* not JSON */
    }
    if (res.status === 401) throw new ApiFailure(401, 'unauthorized', UNAUTHORIZED_HINT);
    throw new ApiFailure(res.status, err?.code ?? 'http', err?.message ? withAdvice(err.code, err.message) : `${res.status} ${res.statusText}`);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file the API sends as an attachment. */
export interface Download {
  text: string;
  /** From `Content-Disposition`, when the server named it. */
  filename: string | null;
  type: string;
}

/** GET an attachment (a plain `<a download>` link would carry no bearer). */
export async function requestDownload(path: string): Promise<Download> {
  let res: Response;
  try {
    res = await fetch(path, { headers: authHeaders() });
  } catch (e) {
    throw new ApiFailure(0, 'network', `Cannot reach mcplab (${(e as Error).message}). Is it still running?`);
  }
  if (res.status === 401) throw new ApiFailure(401, 'unauthorized', UNAUTHORIZED_HINT);
  if (!res.ok) {
    const err = (await res.json().catch(() => null)) as ApiError | null;
    throw new ApiFailure(res.status, err?.code ?? 'http', err?.message ? withAdvice(err.code, err.message) : `${res.status} ${res.statusText}`);
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? null;
  return { text: await res.text(), filename, type: res.headers.get('Content-Type') ?? 'text/plain' };
}

const seg = encodeURIComponent;
const srv = (name: string) => `/api/servers/${seg(name)}`;
const ses = (id: string) => `/api/sessions/${seg(id)}`;

export const api = {
  servers: () => request<ServerView[]>('GET', '/api/servers'),
  server: (name: string) => request<ServerView>('GET', srv(name)),
  /** Adds a server and, unless `connect` is false, starts connecting it (status events follow). */
  addServer: (config: ServerConfig, connect = true) => request<ServerView>('POST', connect ? '/api/servers' : '/api/servers?connect=false', config),
  updateServer: (name: string, config: ServerConfig) => request<ServerView>('PUT', srv(name), config),
  deleteServer: (name: string) => request<void>('DELETE', srv(name)),
  importServers: (json: string) => request<ImportResult>('POST', '/api/servers/import', { json }),
  exportServers: () => request<unknown>('GET', '/api/servers/export'),
  /** The user's order of the servers: every configured name, each once (409 when the set changed meanwhile). */
  setServerOrder: (names: string[]) => request<void>('PUT', '/api/server-order', { names }),
  connect: (name: string) => request<ServerView>('POST', `${srv(name)}/connect`),
  disconnect: (name: string) => request<ServerView>('POST', `${srv(name)}/disconnect`),
  reconnect: (name: string) => request<ServerView>('POST', `${srv(name)}/reconnect`),

  tools: (name: string) => request<{ tools: Tool[] }>('GET', `${srv(name)}/tools`),
  resources: (name: string) => request<{ resources: Resource[] }>('GET', `${srv(name)}/resources`),
  resourceTemplates: (name: string) =>
    request<{ resourceTemplates: ResourceTemplate[] }>('GET', `${srv(name)}/resource-templates`),
  prompts: (name: string) => request<{ prompts: Prompt[] }>('GET', `${srv(name)}/prompts`),

  callTool: (name: string, body: ToolCallRequest) => request<CallOutcome>('POST', `${srv(name)}/tools/call`, body),
  cancelCall: (name: string, callId: string) => request<void>('POST', `${srv(name)}/calls/${seg(callId)}/cancel`),
  /** The Tools page's calls the server keeps: running, and ended in the last minutes. */
  listCalls: () => request<ToolCallView[]>('GET', '/api/calls'),
  /** The call once it ended, or as it is after the server's wait (ask again). */
  waitCall: (name: string, callId: string) => request<ToolCallView>('GET', `${srv(name)}/calls/${seg(callId)}`),
  readResource: (name: string, uri: string) => request<CallOutcome>('POST', `${srv(name)}/resources/read`, { uri }),
  subscribe: (name: string, uri: string) => request<CallOutcome>('POST', `${srv(name)}/resources/subscribe`, { uri }),
  unsubscribe: (name: string, uri: string) =>
    request<CallOutcome>('POST', `${srv(name)}/resources/unsubscribe`, { uri }),
  getPrompt: (name: string, body: PromptGetRequest) => request<CallOutcome>('POST', `${srv(name)}/prompts/get`, body),
  complete: (name: string, body: CompleteRequest) => request<CallOutcome>('POST', `${srv(name)}/complete`, body),
  setLogLevel: (name: string, level: string) => request<CallOutcome>('POST', `${srv(name)}/log-level`, { level }),
  ping: (name: string) => request<CallOutcome>('POST', `${srv(name)}/ping`),
  /** `mcplab check` on the connected server (its traffic so far included). */
  check: (name: string, body: CheckRequest = { calls: [] }) => request<CheckReport>('POST', `${srv(name)}/check`, body),
  /** `mcplab check`'s rules about tool definitions over the tools the server listed last, by tool. */
  toolFindings: (name: string) => request<ToolFindings>('GET', `${srv(name)}/tools/findings`),
  /** A check report as the CLI's `--junit`, `--sarif` or `--markdown` file. */
  checkExport: (body: CheckExport) => request<CheckExported>('POST', '/api/check/export', body),

  traffic: (name: string) => request<TrafficSnapshotView>('GET', `${srv(name)}/traffic`),
  clearTraffic: (name: string) => request<void>('DELETE', `${srv(name)}/traffic`),
  /** One frame whole (the list has only the start of a long one) while it is still recorded. */
  trafficFrame: (name: string, seq: number) => request<TrafficFrame>('GET', `${srv(name)}/traffic/${seq}`),
  /** Host sessions seen through `mcplab tap` (live or opened recordings); their frames are a server's. */
  taps: () => request<TapSessionView[]>('GET', '/api/taps'),
  openRecording: (text: string) => request<TapOpened>('POST', '/api/taps/open', { text }),

  human: () => request<HumanRequest[]>('GET', '/api/human'),
  answerHuman: (id: number, answer: HumanAnswer) => request<void>('POST', `/api/human/${id}`, answer),

  roots: () => request<RootView[]>('GET', '/api/settings/roots'),
  setRoots: (roots: RootView[]) => request<RootView[]>('PUT', '/api/settings/roots', roots),
  /** Where chat turns and eval iterations go as OpenTelemetry spans, and how it went. */
  otlp: () => request<OtlpSettings>('GET', '/api/settings/otlp'),
  setOtlp: (endpoint: string | null) => request<OtlpSettings>('PUT', '/api/settings/otlp', { endpoint }),

  providers: () => request<ProviderView[]>('GET', '/api/llm/providers'),
  /** The server answers with the stored provider's view or with the whole list. */
  setProvider: (id: string, input: ProviderInput) => request<ProviderView[]>('PUT', `/api/llm/providers/${seg(id)}`, input),
  deleteProvider: (id: string) => request<void>('DELETE', `/api/llm/providers/${seg(id)}`),

  sessions: () => request<SessionSummary[]>('GET', '/api/sessions'),
  createSession: (body: NewSession) => request<SessionView>('POST', '/api/sessions', body),
  session: (id: string) => request<SessionView>('GET', ses(id)),
  patchSession: (id: string, patch: SessionPatch) => request<SessionSummary>('PATCH', ses(id), patch),
  deleteSession: (id: string) => request<void>('DELETE', ses(id)),
  /** The session as a JSON or Markdown document, to save as a file. */
  exportSession: (id: string, format: 'json' | 'markdown') => requestDownload(`${ses(id)}/export?format=${format}`),
  /** Groups 2–4 sessions (first column first) as one compare, kept in the store. */
  createCompare: (body: NewCompare) => request<CompareGroup>('POST', '/api/compares', body),
  /** The whole compare (every column) as a JSON or Markdown document. */
  exportCompare: (group: string, format: 'json' | 'markdown') => requestDownload(`/api/compares/${seg(group)}/export?format=${format}`),
  /** One step's x-ray with its request and response bodies (a session's view carries none). */
  stepXray: (id: string, turnId: string, step: number) => request<StepXray>('GET', `${ses(id)}/turns/${seg(turnId)}/xray/${step}`),
  /** A compared turn as an eval suite file (one case, run on every column's model). */
  compareEvalSuite: (ids: string[], turn: number) => requestDownload(`/api/compare/eval-suite?sessions=${ids.map(seg).join(',')}&turn=${turn}`),
  /** 202 once accepted; posting the same `turnId` again is harmless. 409: another turn runs. */
  startTurn: (id: string, turnId: string, message: string) => request<void>('POST', `${ses(id)}/turns`, { turnId, message }),
  cancelTurn: (id: string, turnId: string) => request<void>('POST', `${ses(id)}/turns/${seg(turnId)}/cancel`),
  decideApproval: (id: string, turnId: string, callId: string, decision: ApprovalDecision) =>
    request<void>('POST', `${ses(id)}/turns/${seg(turnId)}/approvals/${seg(callId)}`, decision),
  /** Path of the session's SSE stream (see `openSessionStream` in events.ts). */
  sessionEventsPath: (id: string) => `${ses(id)}/events`,

  /** The spec a render registered for `#/render/<id>` (once). */
  renderSpec: (id: string) => request<AppRenderSpec>('GET', `/api/render-specs/${seg(id)}`),

  prefs: () => request<Record<string, unknown>>('GET', '/api/prefs'),
  setPref: (key: string, value: unknown) => request<void>('PUT', `/api/prefs/${seg(key)}`, value),
};

/** Message of any thrown value, for error states. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

// MCP protocol shapes the API passes through untouched (the server's exact results), typed
// from the spec's schemas in @modelcontextprotocol/core (types only: nothing is validated
// here, a server may send more than the spec says).
export type Tool = z.infer<typeof ToolSchema>;
export type Resource = z.infer<typeof ResourceSchema>;
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;
export type Prompt = z.infer<typeof PromptSchema>;
/** A content block of a tool result or prompt message. */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
/** The contents of an embedded resource block (text or base64 blob). */
export type EmbeddedContents = z.infer<typeof EmbeddedResourceSchema>['resource'];
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;
/** What `initialize` answered (a server view's `info`). */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;
/** A server's `elicitation/create` and `sampling/createMessage` params. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/** The `ui` object of a `_meta` (MCP Apps: `resourceUri`, `visibility`, …), unchecked: a
 * server may put anything there, so each field is `unknown` until looked at. */
export function metaUi(meta: Record<string, unknown> | undefined | null): Record<string, unknown> {
  const ui = meta?.ui;
  return ui && typeof ui === 'object' && !Array.isArray(ui) ? (ui as Record<string, unknown>) : {};
}
