// A legacy MCP-UI resource embedded in a tool result (`ui://…` with `text/html`,
// `text/uri-list` or `application/vnd.mcp-ui.remote-dom…`). HTML and URLs are rendered with
// @mcp-ui/client 6.1.0 through mcplab's MCP-UI proxy page on an origin of this resource's own
// (`http://<fresh label>.localhost:<port>`; never srcdoc in this page, and the sandbox refuses
// URLs naming mcplab itself). Remote DOM scripts run on such an origin too
// (`RemoteDomResource`), not in the library's srcdoc frame in this page, which a strict page
// CSP (no inline script, no eval) would stop. Actions: `tool` calls the tool on the same server
// (the server refuses tools not visible to apps), `prompt` and `intent` become a follow-up
// message once the user agrees, `link` opens after confirmation, `notify` shows a notification.
import { UIResourceRenderer, remoteButtonDefinition, remoteCardDefinition, remoteImageDefinition, remoteStackDefinition, remoteTextDefinition, type UIActionResult } from '@mcp-ui/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useState, type ComponentProps } from 'react';
import './apps.css';
import { errorMessage, type EmbeddedContents } from '../api/client';
import { appOrigin, appsApi, hostQuery, uiSiteProblem } from './api';
import { appIdentity, type AppMessageChannel } from './appMessages';
import { useAppMessages } from './AppMessageAsk';
import { useConfirm } from './AppConfirm';
import { Violations } from './Violations';
import { openableUrl } from './content';
import type { CspViolation } from './host';
import { decodeBase64Utf8 } from './html';
import { RemoteDomResource, type RemoteElementDefinition } from './RemoteDomResource';

export interface McpUiResourceProps {
  server: string;
  resource: EmbeddedContents;
  onFollowUp?: AppMessageChannel;
}

type IframeProps = NonNullable<NonNullable<ComponentProps<typeof UIResourceRenderer>['htmlProps']>['iframeProps']>;
// A data-* attribute is valid on an iframe, but React's attribute type only allows it in JSX.
const IFRAME_PROPS = { 'data-testid': 'mcp-ui-iframe' } as IframeProps;

const REMOTE_ELEMENTS = [remoteButtonDefinition, remoteCardDefinition, remoteImageDefinition, remoteStackDefinition, remoteTextDefinition] as RemoteElementDefinition[];

// `contentType` is MCP-UI's own field, outside the spec's resource contents.
const isRemoteDom = (r: EmbeddedContents) => (r as { contentType?: unknown }).contentType === 'remoteDom' || (typeof r.mimeType === 'string' && r.mimeType.startsWith('application/vnd.mcp-ui.remote-dom'));

/** The script of a Remote DOM resource (`text`, or a base64 `blob`), or null. */
function remoteDomCode(r: EmbeddedContents): string | null {
  if ('text' in r && typeof r.text === 'string') return r.text;
  if ('blob' in r && typeof r.blob === 'string') {
    try {
      return decodeBase64Utf8(r.blob);
    } catch {
      return null;
    }
  }
  return null;
}

/** An origin of this resource's own for as long as it is mounted, or why there is none. */
function useMcpUiOrigin() {
  const mount = useId();
  const qc = useQueryClient();
  return useQuery({
    queryKey: ['mcp-ui-origin', mount],
    queryFn: async () => {
      const h = await qc.fetchQuery(hostQuery);
      const template = h.sandboxOriginTemplate;
      if (!template) throw new Error('The app sandbox is not running, so this MCP-UI resource cannot be shown.');
      const problem = uiSiteProblem(h.sandboxPerApp);
      if (problem) throw new Error(problem);
      return appOrigin(template);
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export function McpUiResource({ server, resource, onFollowUp }: McpUiResourceProps) {
  const site = useMcpUiOrigin();
  const origin = site.data ?? null;
  const error = site.error ? errorMessage(site.error) : null;
  const remote = isRemoteDom(resource);
  const code = useMemo(() => (remote ? remoteDomCode(resource) : null), [remote, resource]);
  const [notes, setNotes] = useState<{ n: number; text: string; kind: 'notify' | 'info' | 'error' }[]>([]);
  const [violations, setViolations] = useState<CspViolation[]>([]);
  const [confirmDialog, ask] = useConfirm();
  const [messageAsk, postAppMessage] = useAppMessages();

  const note = useCallback((text: string, kind: 'notify' | 'info' | 'error') => {
    setNotes((prev) => [...prev.slice(-4), { n: Date.now() + Math.random(), text, kind }]);
  }, []);

  const onUIAction = useCallback(
    async (action: UIActionResult | { type: string; payload: unknown }): Promise<unknown> => {
      // The resource's own message: every field is checked or stringified before use.
      const p = ((action as { payload?: unknown }).payload ?? {}) as Record<string, unknown>;
      switch (action.type) {
        case 'mcplab-csp-violation': {
          // Sent by mcplab's own proxy page (`sandbox/mcp_ui_proxy.html`), not by the resource.
          const v = p as unknown as CspViolation;
          setViolations((prev) => (prev.some((x) => x.directive === v.directive && x.blockedUri === v.blockedUri) ? prev : [...prev, v]));
          return undefined;
        }
        case 'tool': {
          const outcome = await appsApi.callTool(server, { name: String(p.toolName ?? ''), arguments: p.params ?? {}, ui: 'mcpUi', callId: undefined });
          if (outcome.error) throw new Error(outcome.error.message);
          note(`Called ${p.toolName}`, 'info');
          return outcome.result;
        }
        case 'prompt':
        case 'intent': {
          const text =
            action.type === 'prompt' ? String(p.prompt ?? '') : `Intent: ${String(p.intent ?? '')}. Parameters: ${JSON.stringify(p.params ?? {})}`;
          if (!onFollowUp) {
            note(`The resource asked to send “${text}”; there is no conversation here.`, 'info');
            return { sent: false };
          }
          const outcome = await postAppMessage(onFollowUp, appIdentity(server, String(resource.uri ?? '')), text);
          if (!outcome.sent) note(outcome.why, 'info');
          return { sent: outcome.sent };
        }
        case 'link': {
          const u = openableUrl(String(p.url ?? ''));
          if (!u) throw new Error('only http(s) and mailto links can be opened');
          const ok = await ask({ kind: 'link', title: 'Open a link from the MCP-UI resource?', detail: u.href });
          if (!ok) return { opened: false };
          window.open(u.href, '_blank', 'noopener,noreferrer');
          return { opened: true };
        }
        case 'notify':
          note(String(p.message ?? ''), 'notify');
          return { shown: true };
        default:
          return undefined;
      }
    },
    [server, resource.uri, onFollowUp, note, ask, postAppMessage],
  );

  const handle = useCallback(
    (a: UIActionResult) =>
      onUIAction(a).catch((e) => {
        note(`${a.type} failed: ${errorMessage(e)}`, 'error');
        throw e;
      }),
    [onUIAction, note],
  );

  return (
    <div className="app-frame app-bordered mcp-ui" data-testid="mcp-ui-resource" data-uri={resource.uri} data-mime={resource.mimeType}>
      <div className="app-frame-bar">
        <span className="badge badge-warn">MCP-UI</span>
        <span className="mono small app-frame-uri">{resource.uri}</span>
        <span className="muted small">{resource.mimeType}</span>
      </div>
      {error && <div className="inline-error small">{error}</div>}
      {origin && remote && code === null && <div className="inline-error small">The Remote DOM resource has no script (no text or blob).</div>}
      {origin && remote && code !== null && (
        <RemoteDomResource
          proxy={new URL('/mcp-ui-proxy.html?contentType=remotedom', origin).toString()}
          code={code}
          remoteElements={REMOTE_ELEMENTS}
          onAction={(a) => void handle(a as UIActionResult).catch(() => undefined)}
          onError={(m) => note(`The Remote DOM script failed: ${m}`, 'error')}
        />
      )}
      {origin && !remote && (
        <UIResourceRenderer
          resource={resource}
          onUIAction={handle}
          htmlProps={{
            proxy: new URL('/mcp-ui-proxy.html', origin).toString(),
            autoResizeIframe: { height: true },
            style: { width: '100%', height: 240, border: 0 },
            iframeProps: IFRAME_PROPS,
          }}
        />
      )}
      {notes.map((n) => (
        <div key={n.n} className={n.kind === 'error' ? 'inline-error small' : 'app-notice small'} data-testid={n.kind === 'notify' ? 'mcp-ui-notification' : 'mcp-ui-note'} role="status">
          {n.text}
        </div>
      ))}
      {messageAsk}
      <Violations violations={violations} title={<strong>Blocked by the sandbox's Content-Security-Policy:</strong>} />
      {confirmDialog}
    </div>
  );
}
