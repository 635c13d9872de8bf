// One tool: its schema as a form, the call with progress and cancel, the result, and the
// server's call history.
import { useRef, useState } from 'react';
import { AppFrame } from '../apps/lazy';
import { uiLink } from '../apps/linkage';
import { api, errorMessage, type Tool } from '../api/client';
import { useServerEvents } from '../api/events';
import type { CallOutcome } from '../api/types.gen';
import { Button } from '../ui/Button';
import { Markdown } from '../ui/Markdown';
import { SchemaForm, type SchemaFormHandle } from '../ui/SchemaForm';
import { ErrorState } from '../ui/States';
import { ToolResult } from './ToolResult';
import { addHistory, clearHistory, useHistory } from './history';
import { newCallId, toolBadges } from './toolMeta';

interface Progress {
  progress: number;
  total?: number | null;
  message?: string | null;
}

export function ToolDetail({
  server,
  tool,
  initialArgs,
  onLoadHistory,
}: {
  server: string;
  tool: Tool;
  initialArgs?: Record<string, unknown>;
  onLoadHistory: (tool: string, args: Record<string, unknown>) => void;
}) {
  const formRef = useRef<SchemaFormHandle>(null);
  const [callId, setCallId] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const [httpError, setHttpError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const history = useHistory(server);
  // The app of the last call (tools with a UI): mounted when the call starts, so it gets the
  // input first and the result when it arrives.
  const [appRun, setAppRun] = useState<{ callId: string; args: Record<string, unknown> } | null>(null);
  const link = uiLink(tool);

  useServerEvents((e) => {
    if (e.type === 'progress' && e.server === server && callId !== null && e.token === callId) {
      setProgress({ progress: e.progress, total: e.total, message: e.message });
    }
  });

  const run = async (args: Record<string, unknown>) => {
    const id = newCallId();
    setCallId(id);
    setProgress(null);
    setOutcome(null);
    setHttpError(null);
    if (link) setAppRun({ callId: id, args });
    try {
      const out = await api.callTool(server, { name: tool.name, arguments: args, callId: id });
      setOutcome(out);
      addHistory(server, { tool: tool.name, args, ts: Date.now(), ok: !out.error && !out.result?.isError, durationMs: out.durationMs });
    } catch (e) {
      setHttpError(errorMessage(e));
    } finally {
      setCallId(null);
      setCancelling(false);
    }
  };

  const call = () => {
    if (callId) return;
    const args = formRef.current?.submit();
    if (args) void run(args);
  };

  const cancel = async () => {
    if (!callId) return;
    setCancelling(true);
    try {
      await api.cancelCall(server, callId);
    } catch (e) {
      setHttpError(`Cancel failed: ${errorMessage(e)}`);
      setCancelling(false);
    }
  };

  const pct = progress?.total ? Math.min(100, (progress.progress / progress.total) * 100) : null;

  return (
    <div className="tool-detail" data-testid="tool-detail">
      <div className="detail-head">
        <h2 className="mono">{tool.name}</h2>
        {tool.title && <span className="muted">{tool.title}</span>}
        <span className="badges">
          {toolBadges(tool).map((b) => (
            <span key={b.key} className={`badge badge-${b.tone ?? 'plain'}`} title={b.title}>
              {b.label}
            </span>
          ))}
        </span>
      </div>
      {tool.description && <Markdown text={tool.description} testId="tool-description" />}
      <SchemaForm ref={formRef} schema={tool.inputSchema} initial={initialArgs} onSubmitShortcut={call} testId="tool-form" />
      <div className="actions">
        <Button variant="primary" onClick={call} busy={!!callId} data-testid="tool-call" title="Ctrl+Enter">
          {callId ? 'Calling…' : 'Call tool'}
        </Button>
        {callId && (
          <Button variant="danger" onClick={cancel} busy={cancelling} data-testid="tool-cancel">
            Cancel
          </Button>
        )}
        {callId && (
          <div className="progress" data-testid="tool-progress" role="progressbar" aria-valuenow={progress?.progress} aria-valuemax={progress?.total ?? undefined}>
            <div className={`progress-bar${pct === null ? ' indeterminate' : ''}`} style={pct === null ? undefined : { width: `${pct}%` }} />
            <span className="progress-text small">
              {progress ? `${progress.progress}${progress.total ? ` / ${progress.total}` : ''}${progress.message ? ` · ${progress.message}` : ''}` : 'waiting for the server…'}
            </span>
          </div>
        )}
      </div>
      {httpError && <ErrorState title="The call did not go through" message={httpError} testId="tool-http-error" />}
      {link && appRun && (
        <AppFrame
          key={appRun.callId}
          server={server}
          tool={tool}
          link={link}
          callId={appRun.callId}
          args={appRun.args}
          result={outcome?.result as Record<string, unknown> | null | undefined}
          cancelled={outcome?.error ? outcome.error.message : httpError ?? undefined}
        />
      )}
      {outcome && <ToolResult outcome={outcome} tool={tool} server={server} />}
      <History
        entries={history}
        currentTool={tool.name}
        busy={!!callId}
        onRun={(args) => void run(args)}
        onLoad={onLoadHistory}
        onClear={() => clearHistory(server)}
      />
    </div>
  );
}

function History({
  entries,
  currentTool,
  busy,
  onRun,
  onLoad,
  onClear,
}: {
  entries: ReturnType<typeof useHistory>;
  currentTool: string;
  busy: boolean;
  onRun: (args: Record<string, unknown>) => void;
  onLoad: (tool: string, args: Record<string, unknown>) => void;
  onClear: () => void;
}) {
  if (!entries.length) return null;
  return (
    <details className="history" data-testid="tool-history">
      <summary>
        History <span className="muted small">({entries.length})</span>
      </summary>
      <ul>
        {entries.map((h, i) => (
          <li key={`${h.ts}-${i}`} className="history-row" data-testid="history-row">
            <span className={`dot ${h.ok ? 'dot-ok' : 'dot-err'}`} title={h.ok ? 'succeeded' : 'failed'} />
            <span className="mono">{h.tool}</span>
            <code className="history-args" title={JSON.stringify(h.args, null, 2)}>
              {JSON.stringify(h.args)}
            </code>
            <span className="muted small">{new Date(h.ts).toLocaleTimeString([], { hour12: false })} · {h.durationMs} ms</span>
            <Button small variant="ghost" onClick={() => onLoad(h.tool, h.args)} data-testid="history-load">
              Load
            </Button>
            {h.tool === currentTool && (
              <Button small onClick={() => onRun(h.args)} disabled={busy} data-testid="history-rerun">
                Re-run
              </Button>
            )}
          </li>
        ))}
      </ul>
      <Button small variant="ghost" onClick={onClear}>
        Clear history
      </Button>
    </details>
  );
}
