// A direct run in the playground: calls the tool (no model), keeps the newest run's input and
// result for the app frame, collects what the debug panels show (bridge messages, host
// context, diagnostics, widget state, model context), and records whether the run's app
// worked, so the playground can open on a tool that works next time. Must not render.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, errorMessage, type CallToolResult } from '../api/client';
import type { AppDiagnostics } from '../apps/AppFrame';
import type { BridgeMessage } from '../apps/host';
import { newCallId } from '../inspector/toolMeta';
import { getPref, setPref } from '../settings/prefs';
import { emptyDebug, type DebugState } from './DebugPanels';
import { outcomeKey, outcomeOf, type Outcomes } from './defaultTool';

export interface Run {
  n: number;
  callId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown> | null;
  error?: string;
}

const MAX_MESSAGES = 2000;
export const OUTCOMES_PREF = 'playgroundOutcomes';

export function usePlaygroundRun() {
  const [run, setRun] = useState<Run | null>(null);
  const [debug, setDebug] = useState<DebugState>(emptyDebug);
  const runs = useRef(0);

  const start = useCallback(async (server: string, tool: string, args: Record<string, unknown>) => {
    const n = ++runs.current;
    const callId = newCallId();
    setRun({ n, callId, server, tool, args });
    setDebug({ ...emptyDebug(), args });
    const settle = (patch: Pick<Run, 'result' | 'error'>) => {
      if (runs.current !== n) return;
      setRun((r) => (r && r.n === n ? { ...r, ...patch } : r));
      setDebug((d) => ({ ...d, result: (patch.result as CallToolResult | null | undefined) ?? null, error: patch.error ?? null }));
    };
    try {
      const out = await api.callTool(server, { name: tool, arguments: args, callId });
      settle(out.error ? { error: out.error.message } : { result: (out.result as Record<string, unknown> | null) ?? null });
    } catch (e) {
      settle({ error: errorMessage(e) });
    }
  }, []);

  const observers = useMemo(
    () => ({
      onBridgeMessage: (m: BridgeMessage) =>
        setDebug((d) => ({ ...d, messages: d.messages.length >= MAX_MESSAGES ? [...d.messages.slice(1), m] : [...d.messages, m] })),
      onHostContext: (ctx: Record<string, unknown>) =>
        setDebug((d) => ({ ...d, hostContext: { ...d.hostContext, ...ctx }, hostContextChanges: Object.keys(d.hostContext).length ? d.hostContextChanges + 1 : 0 })),
      onDiagnostics: (diagnostics: AppDiagnostics) => setDebug((d) => ({ ...d, diagnostics })),
      onWidgetState: (state: unknown) => setDebug((d) => ({ ...d, widgetState: { at: performance.now(), value: state } })),
      onModelContext: (value: unknown) => setDebug((d) => ({ ...d, modelContext: [...d.modelContext, { at: performance.now(), value }] })),
    }),
    [],
  );

  // Remember how this tool's app did (the default tool prefers ones that worked).
  const diagnostics = debug.diagnostics;
  useEffect(() => {
    if (!run || !diagnostics) return;
    const outcome = outcomeOf(diagnostics);
    const key = outcomeKey(run.server, run.tool);
    const known = getPref<Outcomes>(OUTCOMES_PREF, {});
    if (outcome && known[key] !== outcome) setPref(OUTCOMES_PREF, { ...known, [key]: outcome });
  }, [run, diagnostics]);

  return { run, debug, start, close: () => setRun(null), observers };
}
