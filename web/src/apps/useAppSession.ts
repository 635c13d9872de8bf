// The React side of an app's session: loads what the app needs before its frame exists (the
// sandbox origin template and the prepared resource, through the query cache, one fresh
// origin per load), then creates one `AppSession` per proxy frame and hands it the page's
// latest tool-call state, conditions and observers. Must not decide anything about the
// protocol (that is `AppSession`'s job) nor render anything.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { errorMessage } from '../api/client';
import type { AppResourceView } from '../api/types.gen';
import { appOrigin, appsApi, hostQuery, uiSiteProblem } from './api';
import { createAppHost, type AppHostParts } from './appHost';
import type { HostConditions, ToolInfo } from './host';
import { fetchServerTools, type UiKind } from './linkage';
import { AppSession, type AppSessionObservers, type AppSessionSnapshot, type ToolCallState } from './session';

export interface AppLoad {
  /** This load's own origin, `http://<fresh label>.localhost:<port>`. */
  origin: string;
  /** Every app shares one origin (mcplab on a non-loopback `--host`). */
  shared: boolean;
  resource: AppResourceView;
}

/** The sandbox origin and the resource for one load of an app (`attempt` reloads). */
export function useAppLoad(server: string, uri: string, attempt: number) {
  const mount = useId();
  const qc = useQueryClient();
  return useQuery({
    queryKey: ['app-load', server, uri, mount, attempt],
    queryFn: async (): Promise<AppLoad> => {
      const [host, resource] = await Promise.all([qc.fetchQuery(hostQuery), appsApi.resource(server, uri).catch((e) => Promise.reject(new Error(`Could not load ${uri}: ${errorMessage(e)}`)))]);
      const template = host.sandboxOriginTemplate;
      if (!template) throw new Error('The app sandbox is not running, so mcplab cannot show this app. Start mcplab with `mcplab serve`.');
      const problem = uiSiteProblem(host.sandboxPerApp);
      if (problem) throw new Error(problem);
      // A fresh origin for every load: nothing this app leaves behind is seen by another.
      return { origin: appOrigin(template), shared: !host.sandboxPerApp, resource };
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export interface SessionInputs {
  server: string;
  uri: string;
  kind: UiKind;
  load: AppLoad | undefined;
  frame: HTMLIFrameElement | null;
  toolInfo: ToolInfo;
  conditions: HostConditions;
  call: ToolCallState;
  observers: AppSessionObservers;
  confirm: AppHostParts['confirm'];
  sendMessage: AppHostParts['sendMessage'];
  onLog?: AppHostParts['onLog'];
}

const idle = (): AppSessionSnapshot | null => null;
const never = () => () => undefined;

/** The session of the current proxy frame (null until the frame and resource exist), and its
 * snapshot. */
export function useAppSession(inputs: SessionInputs): [AppSession | null, AppSessionSnapshot | null] {
  const { server, uri, kind, load, frame } = inputs;
  const qc = useQueryClient();
  const latest = useRef(inputs);
  useEffect(() => {
    latest.current = inputs;
  });
  const [session, setSession] = useState<AppSession | null>(null);

  useEffect(() => {
    const win = frame?.contentWindow;
    if (!win || !load) return;
    const now = latest.current;
    const host = createAppHost({
      server,
      uri,
      kind,
      listTools: () => fetchServerTools(qc, server),
      confirm: (q) => latest.current.confirm(q),
      sendMessage: (text) => latest.current.sendMessage(text),
      onLog: (e) => latest.current.onLog?.(e),
    });
    const s = new AppSession({ server, uri, kind, frame: win, origin: load.origin, resource: load.resource, toolInfo: now.toolInfo, conditions: now.conditions, call: now.call }, host);
    s.observers = now.observers;
    s.start();
    setSession(s);
    return () => {
      s.dispose();
      setSession(null);
    };
  }, [frame, load, server, uri, kind, qc]);

  useEffect(() => {
    if (session) session.observers = inputs.observers;
  });
  const { partialArgs, args, result, cancelled, widgetState } = inputs.call;
  useEffect(() => {
    session?.update({ partialArgs, args, result, cancelled, widgetState });
  }, [session, partialArgs, args, result, cancelled, widgetState]);
  useEffect(() => {
    session?.setConditions(inputs.conditions);
  }, [session, inputs.conditions]);

  const snapshot = useSyncExternalStore(session?.subscribe ?? never, session?.getSnapshot ?? idle);
  return [session, snapshot];
}
