// Which server and tool the playground shows: the server remembered while it is connected
// (else the first connected one), its tools with a UI, and the tool: the person's pick on that
// server (remembered in prefs), else the first that works (`defaultTool.ts`). Must not render
// nor run anything.
import { useEffect, useMemo, useState } from 'react';
import type { Tool } from '../api/client';
import { useServerList } from '../api/queries';
import { uiLink } from '../apps/linkage';
import { getPref, setPref } from '../settings/prefs';
import { pickTool, type Outcomes } from './defaultTool';
import { OUTCOMES_PREF } from './usePlaygroundRun';

const CHOSEN_PREF = 'playgroundTools';

export function useToolChoice(connected: string[]) {
  const [server, setServer] = useState<string>(() => getPref<string>('playgroundServer', ''));
  useEffect(() => {
    if (connected.length && !connected.includes(server)) setServer(connected[0]);
  }, [connected, server]);
  useEffect(() => {
    if (server) setPref('playgroundServer', server);
  }, [server]);
  const list = useServerList(server || null, 'tools');
  const tools = useMemo(() => (list.data ? list.data.filter((t) => uiLink(t)) : null), [list.data]);
  const [toolName, setToolName] = useState<string | null>(null);
  useEffect(() => {
    if (!tools || tools.some((t) => t.name === toolName)) return;
    const chosen = getPref<Record<string, string>>(CHOSEN_PREF, {})[server] ?? null;
    setToolName(pickTool(server, tools, chosen, getPref<Outcomes>(OUTCOMES_PREF, {})));
  }, [server, tools, toolName]);
  const choose = (name: string) => {
    setToolName(name);
    setPref(CHOSEN_PREF, { ...getPref<Record<string, string>>(CHOSEN_PREF, {}), [server]: name });
  };
  const tool: Tool | null = tools?.find((t) => t.name === toolName) ?? null;
  return { server, setServer, tools, toolsError: list.error, tool, setToolName, choose };
}
