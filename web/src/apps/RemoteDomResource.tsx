// A legacy MCP-UI Remote DOM resource (`application/vnd.mcp-ui.remote-dom+javascript`),
// rendered so that its script never runs in mcplab's page: a hidden frame loads the MCP-UI
// proxy page on an origin of this resource's own (`?contentType=remotedom`), the page sends
// it the Remote DOM runtime (`remoteDom/runtime.ts`, fetched from this origin), and the proxy
// runs runtime and script in an opaque-origin frame under the sandbox's CSP. What the script
// builds comes back over a @quilted/threads channel as mutations, which @remote-dom/core's
// DOMRemoteReceiver mirrors here, limited to the basic library's elements and their
// attributes and events (`remoteDom/elements.ts`). So the host page needs no inline script
// and no eval: it works under `script-src 'self'`. Actions the script posts (`tool`,
// `prompt`, `link`, …) reach `onAction` like those of any MCP-UI resource.
import { ThreadWindow } from '@quilted/threads';
import type { RemoteConnection } from '@remote-dom/core';
import { DOMRemoteReceiver } from '@remote-dom/core/receivers';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../api/client';
import { POLICY, defineBasicElements } from './remoteDom/elements';
import runtimeUrl from './remoteDom/runtime.ts?worker&url';

export interface RemoteElementDefinition {
  tagName: string;
  remoteAttributes?: string[];
  remoteEvents?: string[];
}

interface RemoteRuntime {
  render(options: { code: string; remoteElements: RemoteElementDefinition[] }, connection: RemoteConnection): Promise<void>;
}

export interface RemoteDomResourceProps {
  /** The MCP-UI proxy page on this resource's own origin, with `contentType=remotedom`. */
  proxy: string;
  code: string;
  remoteElements: RemoteElementDefinition[];
  onAction: (action: { type: string; payload?: unknown }) => void;
  onError: (message: string) => void;
}

let runtimeSource: Promise<string> | null = null;

/** The runtime bundle's text (served by mcplab with the page), fetched once. */
function loadRuntime(): Promise<string> {
  runtimeSource ??= fetch(runtimeUrl).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`the Remote DOM runtime did not load (HTTP ${r.status})`))));
  runtimeSource.catch(() => (runtimeSource = null));
  return runtimeSource;
}

export function RemoteDomResource({ proxy, code, remoteElements, onAction, onError }: RemoteDomResourceProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef({ onAction, onError });
  useEffect(() => {
    latest.current = { onAction, onError };
  });

  useEffect(() => {
    const win = frame.current?.contentWindow;
    const root = host.current;
    if (!win || !root) return;
    defineBasicElements();
    const origin = new URL(proxy).origin;
    const receiver = new DOMRemoteReceiver({ root, elements: POLICY });
    let thread: ThreadWindow<RemoteRuntime> | null = null;
    let started = false;
    const start = async () => {
      try {
        // Only now: the thread's first ping must reach the proxy page, not the blank frame.
        thread = new ThreadWindow<RemoteRuntime>(win, { targetOrigin: origin });
        win.postMessage({ type: 'mcplab-remote-dom', payload: { runtime: await loadRuntime() } }, origin);
        await thread.imports.render({ code, remoteElements }, receiver.connection);
      } catch (e) {
        latest.current.onError(errorMessage(e));
      }
    };
    const onMessage = (e: MessageEvent) => {
      if (e.source !== win || e.origin !== origin) return;
      const d = e.data as { type?: unknown; payload?: { message?: unknown } } | null;
      // Thread messages are arrays and strings; actions are `{type, payload}` objects.
      if (!d || typeof d !== 'object' || Array.isArray(d) || typeof d.type !== 'string') return;
      if (d.type === 'ui-proxy-iframe-ready') {
        if (!started) void start();
        started = true;
      } else if (d.type === 'mcplab-remote-dom-error') {
        latest.current.onError(String(d.payload?.message ?? 'the Remote DOM script failed'));
      } else {
        latest.current.onAction(d as { type: string; payload?: unknown });
      }
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      thread?.close();
      root.replaceChildren();
    };
  }, [proxy, code, remoteElements]);

  return (
    <>
      <iframe ref={frame} src={proxy} hidden title="Remote DOM sandbox" sandbox="allow-scripts allow-same-origin" data-testid="mcp-ui-remote-dom-frame" />
      <div ref={host} className="mcp-ui-remote-dom" data-testid="mcp-ui-remote-dom" />
    </>
  );
}
