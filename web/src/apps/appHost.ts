// The real `AppHost` an `AppSession` talks to: mcplab's API for the app's own server (tool
// calls through `/apps/tools/call`, where the server enforces same-server and visibility;
// reads and lists through the ordinary routes), the event stream for list changes, the logs
// store, and the page's own dialogs. Nothing here decides policy; it only connects.
import { ApiFailure, api, errorMessage, type Tool } from '../api/client';
import { events } from '../api/events';
import { pushAppLog } from '../logs/store';
import { appsApi } from './api';
import { save } from './downloads';
import type { UiKind } from './linkage';
import type { AppHost, ConfirmQuestion, MessageOutcome } from './session';

export interface AppHostParts {
  server: string;
  uri: string;
  kind: UiKind;
  listTools: () => Promise<Tool[]>;
  confirm: (q: ConfirmQuestion) => Promise<boolean>;
  sendMessage: (text: string) => Promise<MessageOutcome> | null;
  /** Also told about every log line (the headless render's report). */
  onLog?: (entry: { level: string; logger: string; data: unknown }) => void;
}

export function createAppHost(p: AppHostParts): AppHost {
  const { server } = p;
  const result = async (outcome: { result?: unknown; error?: { message: string } | null }) => {
    if (outcome.error) throw new Error(outcome.error.message);
    return outcome.result as Record<string, unknown>;
  };
  return {
    callTool: async (name, args) => {
      try {
        return await result(await appsApi.callTool(server, { name, arguments: args, ui: p.kind, callId: undefined }));
      } catch (e) {
        // The API's code first (`tool_not_visible_to_app: …`): apps can tell refusals apart.
        throw new Error(e instanceof ApiFailure ? `${e.code}: ${e.message}` : errorMessage(e), { cause: e });
      }
    },
    readResource: async (uri) => result(await api.readResource(server, uri)),
    listResources: async () => (await api.resources(server)) as Record<string, unknown>,
    listResourceTemplates: async () => (await api.resourceTemplates(server)) as Record<string, unknown>,
    listPrompts: async () => (await api.prompts(server)) as Record<string, unknown>,
    listTools: p.listTools,
    confirm: p.confirm,
    sendMessage: p.sendMessage,
    openUrl: (href) => void window.open(href, '_blank', 'noopener,noreferrer'),
    saveFiles: (files) => files.forEach(save),
    log: (level, logger, data) => {
      pushAppLog(server, level, logger, data);
      p.onLog?.({ level, logger, data });
    },
    onListChanged: (listener) =>
      events.onServerEvent((e) => {
        if (e.type === 'listChanged' && e.server === server) listener(e.list);
      }),
  };
}
