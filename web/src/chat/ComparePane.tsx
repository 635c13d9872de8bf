// Compare mode (`#/chat/compare/<id>/<id>…`): 2–4 chat sessions side by side, each its own
// HostConfig (another model, another host profile, or both; each column's head says which and
// what differs from column 1), one composer sending the same message
// to every column at once. Each column streams, stops and retries on its own and keeps its own
// history (they are ordinary sessions, so they persist, reload and export like any chat).
// Under the columns, per turn, the aligned comparison: calls in order with their arguments
// (a call that differs from the first column's is marked), steps, tokens, cost, time to first
// token, total time and how the turn ended. Over the composer, "Save as eval case" (the turns
// every column finished, as a case run on every compared model). Narrow windows show one
// column at a time, under tabs (every column stays mounted: each keeps streaming while
// another is shown).
import { useCallback, useEffect, useRef, useState } from 'react';
import { ListPlus } from 'lucide-react';
import { api, errorMessage } from '../api/client';
import type { HostConfig } from '../api/types.gen';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import { Loading } from '../ui/Spinner';
import { AppHostConditions } from './AppHostConditions';
import { ChatAppsContext } from './appsContext';
import { Composer } from './Composer';
import { Conversation } from './Conversation';
import type { ChatTurn } from './turns';
import { useChatSession } from './useChatSession';
import { differing, figures, usd, type ColumnFigures } from './xray';
import { HostDifference, useHostProfileName } from './CompareHosts';
import { CHAT_DRAWERS_QUERY, useMediaQuery } from '../ui/useMediaQuery';

interface ColumnState {
  model: string;
  host: HostConfig | null;
  /** The host profile the column runs as (null: a mix of its own). */
  profile: string | null;
  turns: ChatTurn[];
  running: boolean;
}

interface Controls {
  send: (text: string) => unknown;
  cancel: () => unknown;
}

export function ComparePane({ ids }: { ids: string[] }) {
  const controls = useRef(new Map<string, Controls>());
  const [columns, setColumns] = useState<Record<string, ColumnState>>({});
  const report = useCallback((id: string, s: ColumnState, c: Controls) => {
    controls.current.set(id, c);
    setColumns((all) => (all[id]?.turns === s.turns && all[id]?.running === s.running && all[id]?.model === s.model && all[id]?.host === s.host && all[id]?.profile === s.profile ? all : { ...all, [id]: s }));
  }, []);
  const running = ids.some((id) => columns[id]?.running);
  const tabs = useMediaQuery(CHAT_DRAWERS_QUERY);
  const [shown, setShown] = useState(0);
  const states = ids.map((id) => columns[id] ?? { model: '', host: null, profile: null, turns: [], running: false });
  return (
    <div className="chat-compare" data-testid="chat-compare">
      {tabs && (
        <div className="compare-tabs" role="tablist" aria-label="Compared chats">
          {ids.map((id, i) => (
            <button key={id} type="button" role="tab" aria-selected={shown === i} className="compare-tab" onClick={() => setShown(i)} data-testid="compare-tab">
              {i + 1}. {columns[id]?.model.split('::').pop() || '…'}
              {columns[id]?.profile && <span className="muted"> as {columns[id]?.profile}</span>}
              {columns[id]?.running && <span className="muted"> …</span>}
            </button>
          ))}
        </div>
      )}
      <div className={`compare-columns${tabs ? ' compare-tabbed' : ''}`} style={{ gridTemplateColumns: tabs ? 'minmax(0, 1fr)' : `repeat(${ids.length}, minmax(0, 1fr))` }}>
        {ids.map((id, i) => (
          <CompareColumn key={id} id={id} index={i} report={report} first={columns[ids[0]]?.host ?? null} hidden={tabs && shown !== i} />
        ))}
      </div>
      <Comparison columns={states} />
      {!running && <SaveEvalCase ids={ids} turn={finishedTurns(states)} />}
      <Composer
        running={running}
        disabledReason={null}
        onSend={(text) => ids.forEach((id) => void controls.current.get(id)?.send(text))}
        onStop={() => Promise.all(ids.map((id) => controls.current.get(id)?.cancel()))}
      />
    </div>
  );
}

interface ColumnProps {
  id: string;
  index: number;
  report: (id: string, s: ColumnState, c: Controls) => void;
  /** Column 1's HostConfig, what this column's "what differs" is against. */
  first: HostConfig | null;
  /** Another tab is shown (the column stays mounted and keeps streaming). */
  hidden?: boolean;
}

function CompareColumn({ id, index, report, first, hidden }: ColumnProps) {
  const chat = useChatSession(id);
  const host = chat.summary?.hostConfig ?? null;
  const model = host?.model ?? '';
  const profile = useHostProfileName(host);
  const isRunning = chat.running !== null;
  useEffect(() => {
    report(id, { model, host, profile, turns: chat.turns, running: isRunning }, { send: chat.send, cancel: chat.cancel });
  }, [id, model, host, profile, chat.turns, isRunning, chat.send, chat.cancel, report]);
  if (chat.loading) return <Loading label="Loading…" />;
  return (
    <div className="compare-column" hidden={hidden} data-testid="compare-column" data-column={index + 1} data-model={model} data-host={profile ?? ''} data-session-id={id}>
      <div className="compare-column-head">
        <strong>
          {index + 1}. {model}
        </strong>
        <span className="small muted" data-testid="compare-column-host">
          as {profile ?? 'custom host'}
        </span>

        {isRunning && (
          <Button small onClick={() => void chat.cancel()} data-testid="compare-stop">
            Stop
          </Button>
        )}
        <a className="small" href={`#/chat/${encodeURIComponent(id)}`}>
          open alone
        </a>
      </div>
      {index > 0 && host && first && <HostDifference first={first} mine={host} />}
      {chat.error && <div className="inline-error small">{chat.error}</div>}
      {chat.actionError && <div className="inline-error small">{chat.actionError}</div>}
      <ChatAppsContext.Provider value={{ sessionId: id, followUp: chat.followUp, appContext: chat.appContext }}>
        {chat.summary && (
          <AppHostConditions profile={chat.summary.hostConfig.appHost} mcpApps={chat.summary.hostConfig.client?.mcpApps ?? true}>
            <Conversation turns={chat.turns} onRetry={(t) => void chat.send(t.user, t.turnId)} canRetry={!isRunning} sessionId={id} />
          </AppHostConditions>
        )}
      </ChatAppsContext.Provider>
    </div>
  );
}

function Comparison({ columns }: { columns: ColumnState[] }) {
  const n = Math.max(0, ...columns.map((c) => c.turns.length));
  if (n === 0) return null;
  return (
    <div className="compare-table-wrap" data-testid="compare-table">
      {Array.from({ length: n }, (_, t) => (
        <TurnComparison key={t} index={t} models={columns.map((c) => (c.profile ? `${c.model} as ${c.profile}` : c.model))} figs={columns.map((c) => figures(c.turns[t]))} />
      ))}
    </div>
  );
}

/** How many turns every column has finished (the conversation "Save as eval case" saves). */
function finishedTurns(columns: ColumnState[]): number {
  let n = 0;
  while (columns.length > 0 && columns.every((c) => c.turns[n] && c.turns[n].status !== 'running')) n++;
  return n;
}

/** Like the single chat's: over the message box, in its column. The file is fetched with the
 *  bearer and offered as a download (a plain `<a download>` link carries none). */
function SaveEvalCase({ ids, turn }: { ids: string[]; turn: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const file = await api.compareEvalSuite(ids, turn);
      download(file.filename ?? 'compare-eval.json', file.text, file.type);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  if (turn === 0) return null;
  return (
    <div className="chat-save-case small" data-testid="compare-save-case">
      <Button
        small
        busy={busy}
        onClick={() => void save()}
        data-testid="compare-save-eval"
        title={`An eval suite file: this conversation (${turn} turn${turn === 1 ? '' : 's'}) as a case, run on every compared model`}
      >
        {!busy && <ListPlus size={14} aria-hidden="true" />}
        Save as eval case
      </Button>
      {error && (
        <span className="inline-error small" role="alert" data-testid="compare-save-eval-error">
          {error}
        </span>
      )}
    </div>
  );
}

function TurnComparison({ index, models, figs }: { index: number; models: string[]; figs: (ColumnFigures | null)[] }) {
  const diff = differing(figs);
  const most = Math.max(0, ...figs.map((f) => f?.calls.length ?? 0));
  const ms = (v: number | null | undefined) => (v == null ? '-' : `${v} ms`);
  const row = (name: string, cell: (f: ColumnFigures) => string, testId: string) => (
    <tr data-testid={testId}>
      <th scope="row">{name}</th>
      {figs.map((f, i) => (
        <td key={i}>{f ? cell(f) : '-'}</td>
      ))}
    </tr>
  );
  return (
    <table className="compare-table small" data-testid="compare-turn" data-turn={index + 1}>
      <caption>Turn {index + 1}</caption>
      <thead>
        <tr>
          <th />
          {models.map((m, i) => (
            <th key={i} scope="col">
              {i + 1}. {m}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Array.from({ length: most }, (_, c) => (
          <tr key={c} data-testid="compare-call-row">
            <th scope="row">call {c + 1}</th>
            {figs.map((f, i) => {
              const call = f?.calls[c];
              const differs = diff[i]?.[c] ?? false;
              return (
                <td key={i} className={differs ? 'compare-differs' : undefined} data-differs={differs ? 'true' : 'false'} data-testid="compare-call">
                  {call ? (
                    <>
                      {differs && <span aria-label="differs">≠ </span>}
                      <code>{call.name}</code> <code className="wrap">{call.args}</code>
                    </>
                  ) : (
                    '-'
                  )}
                </td>
              );
            })}
          </tr>
        ))}
        {row('steps', (f) => String(f.steps), 'compare-steps')}
        {row('tokens in / out', (f) => `${f.inputTokens} / ${f.outputTokens}${f.estimated ? ' (est.)' : ''}`, 'compare-tokens')}
        {row('cost', (f) => usd(f.cost), 'compare-cost')}
        {row('first token', (f) => ms(f.ttftMs), 'compare-ttft')}
        {row('total time', (f) => ms(f.durationMs), 'compare-duration')}
        {row('ended', (f) => f.ended, 'compare-ended')}
      </tbody>
    </table>
  );
}
