// One tool: its schema as a form (values kept as a draft), the call with progress and cancel
// from the calls store, "send anyway" for arguments the schema rejects, the result (or the
// tool's last call, after a reload), saved requests and the history.
import { useRef, useState } from 'react';
import { ListTree, Play, Save, Send, Smartphone, X } from 'lucide-react';
import { AppFrame } from '../apps/lazy';
import { uiLink } from '../apps/linkage';
import type { Tool } from '../api/client';
import { Button } from '../ui/Button';
import { Markdown } from '../ui/Markdown';
import { SchemaForm, type SchemaFormHandle } from '../ui/SchemaForm';
import { routeHash } from '../ui/route';
import { ErrorState } from '../ui/States';
import { showCallFrames } from '../traffic/store';
import { cancelToolCall, startToolCall, useToolCall } from './calls';
import { useLastCall, saveRequest, useSavedRequests } from './history';
import { getDraft, setDraft } from './selection';
import { CallProgressBar } from './CallProgressBar';
import { ToolChecks } from './ToolChecks';
import { ToolHistory } from './ToolHistory';
import { ToolResult } from './ToolResult';
import { toolBadges, uiResourceUri } from './toolMeta';
import type { ToolMarksState } from './toolMarks';

export function ToolDetail({ server, tool, onSelect, checks }: { server: string; tool: Tool; onSelect: (tool: string) => void; checks: ToolMarksState }) {
  const formRef = useRef<SchemaFormHandle>(null);
  const call = useToolCall(server, tool.name);
  const last = useLastCall(server, tool.name);
  const [formNonce, setFormNonce] = useState(0);
  const [rejected, setRejected] = useState<string | null>(null);
  const link = uiLink(tool);
  const running = !!call?.running;
  const savedForTool = useSavedRequests(server).filter((s) => s.tool === tool.name).length;

  const run = (args: Record<string, unknown>, unchecked = false) => {
    setRejected(null);
    startToolCall(server, tool.name, args, { unchecked });
  };
  const callNow = () => {
    if (running) return;
    const args = formRef.current?.submit();
    if (args) run(args);
    else setRejected('The arguments do not match the tool’s input schema.');
  };
  const sendAnyway = () => {
    const v = formRef.current?.current();
    if (!v) return;
    if (v.ok) run(v.value, true);
    else setRejected(v.error);
  };
  const load = (name: string, args: Record<string, unknown>) => {
    setDraft('tool', server, name, args);
    if (name === tool.name) setFormNonce((n) => n + 1);
    else onSelect(name);
  };
  const rerun = (name: string, args: Record<string, unknown>) => {
    startToolCall(server, name, args);
    if (name !== tool.name) onSelect(name);
  };

  const outcome = call ? call.outcome : (last?.outcome ?? null);
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
      <ToolChecks checks={checks} tool={tool.name} />
      <SchemaForm
        key={formNonce}
        ref={formRef}
        schema={tool.inputSchema}
        initial={getDraft<Record<string, unknown>>('tool', server, tool.name)}
        onChange={(v) => setDraft('tool', server, tool.name, v)}
        onSubmitShortcut={callNow}
        testId="tool-form"
      />
      <div className="actions">
        <Button variant="primary" onClick={callNow} busy={running} data-testid="tool-call" title="Ctrl+Enter">
          {!running && <Play size={14} aria-hidden="true" />}
          {running ? 'Calling…' : 'Call tool'}
        </Button>
        {running && (
          <Button variant="danger" onClick={() => void cancelToolCall(server, tool.name)} busy={call?.cancelling} data-testid="tool-cancel">
            <X size={14} aria-hidden="true" /> Cancel
          </Button>
        )}
        {!running && <SaveRequest onSave={(name) => {
          const v = formRef.current?.current();
          if (v?.ok) saveRequest(server, { name, tool: tool.name, args: v.value, savedAt: Date.now() });
        }} defaultName={`${tool.name} ${savedForTool + 1}`} />}
        {(call ?? last) && (
          <Button variant="ghost" onClick={() => showCallFrames({ server, tool: tool.name, requests: (call ?? last)!.outcome?.requests ?? undefined, args: (call ?? last)!.args })} data-testid="tool-frames" title="Show the frames of this call in the traffic panel">
            <ListTree size={14} aria-hidden="true" /> Frames
          </Button>
        )}
        {running && call && <CallProgressBar progress={call.progress} />}
        {uiResourceUri(tool) && (
          // The Tools page shows a result; the app it renders is the Playground's (host profile, device, theme).
          <a className="btn btn-ghost" href={routeHash('playground', server, tool.name)} data-testid="tool-open-playground" title="Render this tool's app in the Playground, as a host would">
            <Smartphone size={14} aria-hidden="true" /> Open in Playground
          </a>
        )}
      </div>
      {rejected && !running && (
        <div className="send-anyway" role="alert" data-testid="tool-rejected">
          <span>{rejected} Send them anyway to test the server’s own validation?</span>
          <Button small onClick={sendAnyway} data-testid="tool-send-anyway">
            <Send size={13} aria-hidden="true" /> Send anyway
          </Button>
        </div>
      )}
      {call?.httpError && <ErrorState title="The call did not go through" message={call.httpError} testId="tool-http-error" />}
      {link && call && (
        <AppFrame
          key={call.callId}
          server={server}
          tool={tool}
          link={link}
          callId={call.callId}
          args={call.args}
          result={call.outcome?.result as Record<string, unknown> | null | undefined}
          cancelled={call.outcome?.error ? call.outcome.error.message : (call.httpError ?? undefined)}
        />
      )}
      {!call && last?.resultDropped && <div className="muted small">The last call’s result was too large to keep; call again to see it.</div>}
      {outcome && (
        <>
          {!call && last && <div className="muted small" data-testid="tool-last-call">Last call · {new Date(last.ts).toLocaleString([], { hour12: false })}</div>}
          {call?.unchecked && <div className="badge badge-warn" data-testid="tool-unchecked">sent without schema validation</div>}
          <ToolResult outcome={outcome} tool={tool} server={server} />
        </>
      )}
      <ToolHistory server={server} currentTool={tool.name} onLoad={load} onRerun={rerun} />
    </div>
  );
}

function SaveRequest({ onSave, defaultName }: { onSave: (name: string) => void; defaultName: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  if (!open)
    return (
      <Button variant="ghost" onClick={() => { setName(defaultName); setOpen(true); }} data-testid="tool-save">
        <Save size={14} aria-hidden="true" /> Save request
      </Button>
    );
  const done = () => {
    if (name.trim()) onSave(name.trim());
    setOpen(false);
  };
  return (
    <form className="save-request" onSubmit={(e) => { e.preventDefault(); done(); }}>
      <input value={name} onChange={(e) => setName(e.target.value)} aria-label="Name of the saved request" data-testid="tool-save-name" autoFocus onKeyDown={(e) => e.key === 'Escape' && setOpen(false)} />
      <Button small type="submit" variant="primary" data-testid="tool-save-confirm">Save</Button>
      <Button small variant="ghost" onClick={() => setOpen(false)}>Cancel</Button>
    </form>
  );
}
