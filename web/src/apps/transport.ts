// The transport between one app's `AppBridge` and its sandbox proxy frame, bound to that
// frame three ways: a message counts only when it comes from the frame's window, from the
// app's own origin (`http://<label>.localhost:<port>`), and — once the proxy has the resource —
// carries the per-frame secret nonce the proxy got with `sandbox-resource-ready`. The proxy
// wraps everything it sends as `{mcplabProxy: nonce, from: 'proxy' | 'app', message}`; reserved
// `ui/notifications/sandbox-*` methods count only `from: 'proxy'`. Everything else is dropped
// (and counted, for the debug view). It also records every message and lets the host take out
// messages that are not for the bridge (CSP reports, the `window.openai` shim's methods).
// It must not trust anything the app could write: not the envelope's `from` without the
// nonce, not a second `sandbox-proxy-ready`.

export interface BridgeMessage {
  n: number;
  at: number;
  dir: 'toApp' | 'fromApp';
  method?: string;
  id?: string | number;
  message: unknown;
}

type Json = Record<string, unknown>;
/** The SDK's `Transport` shape, structurally (AppBridge only needs these members). */
type Message = Json & { jsonrpc: '2.0' };

const RESERVED = 'ui/notifications/sandbox-';
const PROXY_READY = `${RESERVED}proxy-ready`;
const RESOURCE_READY = `${RESERVED}resource-ready`;

/** A fresh random secret for one frame (128 bits, hex). */
export function frameNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether `m` looks like a JSON-RPC 2.0 message (the bridge validates the rest). */
function isJsonRpc(m: unknown): m is Message {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return false;
  const o = m as Json;
  if (o.jsonrpc !== '2.0') return false;
  const idOk = o.id === undefined || typeof o.id === 'string' || typeof o.id === 'number';
  if (typeof o.method === 'string') return idOk;
  return o.id !== undefined && idOk && ('result' in o || 'error' in o);
}

export class ProxyTransport {
  private n = 0;
  private readonly nonce = frameNonce();
  private sawReady = false;
  private resourceSent = false;
  /** Messages dropped because they failed the binding (for tests and the debug view). */
  dropped = 0;
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;

  constructor(
    private readonly target: Window,
    private readonly origin: string,
    private readonly onRecord: (m: BridgeMessage) => void,
    private readonly intercept: (m: Json) => boolean,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.target || event.origin !== this.origin) return;
    const message = this.accept(event.data);
    if (!message) {
      this.dropped++;
      return;
    }
    this.record('fromApp', message);
    if (this.intercept(message)) return;
    this.onmessage?.(message);
  };

  /** The message inside a proxy envelope, or null when the envelope does not bind to this frame. */
  private accept(data: unknown): Message | null {
    if (!data || typeof data !== 'object') return null;
    const env = data as { mcplabProxy?: unknown; from?: unknown; message?: unknown };
    const m = env.message;
    if (!isJsonRpc(m)) return null;
    const reserved = typeof m.method === 'string' && m.method.startsWith(RESERVED);
    if (env.mcplabProxy === null) {
      // Before the proxy has the nonce only its one ready signal can arrive (no app exists yet).
      if (this.sawReady || this.resourceSent || env.from !== 'proxy' || m.method !== PROXY_READY) return null;
      this.sawReady = true;
      return m;
    }
    if (!this.resourceSent || env.mcplabProxy !== this.nonce) return null;
    if (reserved && env.from !== 'proxy') return null;
    if (m.method === PROXY_READY) return null;
    return m;
  }

  private record(dir: BridgeMessage['dir'], m: Json): void {
    this.onRecord({
      n: this.n++,
      at: performance.now(),
      dir,
      method: typeof m.method === 'string' ? m.method : undefined,
      id: typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined,
      message: m,
    });
  }

  async start(): Promise<void> {
    window.addEventListener('message', this.listener);
  }

  async send(message: Json): Promise<void> {
    this.record('toApp', message);
    let out = message;
    if (message.method === RESOURCE_READY) {
      // The nonce goes to the proxy before the app's document exists, so app code never sees it.
      out = { ...message, params: { ...((message.params as Json | undefined) ?? {}), mcplabNonce: this.nonce } };
      this.resourceSent = true;
    }
    this.target.postMessage(out, this.origin);
  }

  async close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}
