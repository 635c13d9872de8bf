// The playground's tool input: the form's handle, its key (a loaded scenario remounts the form
// with the scenario's arguments), running what the form holds, and loading a saved scenario —
// its server, tool, arguments and emulation — which runs at once. Must not render.
import { useCallback, useRef, useState } from 'react';
import type { Tool } from '../api/client';
import type { AppScenario } from '../api/types.gen';
import type { SchemaFormHandle } from '../ui/SchemaForm';
import type { Emulation } from './devices';
import { scenarioEmulation } from './useEmulation';

export interface ToolInputDeps {
  server: string;
  tool: Tool | null;
  setServer: (s: string) => void;
  setToolName: (t: string) => void;
  emulation: Emulation;
  setEmulation: (e: Emulation) => void;
  start: (server: string, tool: string, args: Record<string, unknown>) => Promise<void>;
}

export function useToolInput({ server, tool, setServer, setToolName, emulation, setEmulation, start }: ToolInputDeps) {
  const formRef = useRef<SchemaFormHandle>(null);
  const [initialArgs, setInitialArgs] = useState<Record<string, unknown> | undefined>(undefined);
  const [loads, setLoads] = useState(0);

  /** Runs the form's arguments (nothing when the form refuses them). */
  const runNow = useCallback(() => {
    const args = formRef.current?.submit();
    if (args && tool) void start(server, tool.name, args);
  }, [start, server, tool]);

  const loadScenario = (s: AppScenario) => {
    if (s.server !== server) setServer(s.server);
    setToolName(s.tool);
    setInitialArgs(s.arguments as Record<string, unknown>);
    setLoads((k) => k + 1);
    const next = scenarioEmulation(emulation, s.conditions as Partial<Emulation> | null);
    if (next !== emulation) setEmulation(next);
    void start(s.server, s.tool, s.arguments as Record<string, unknown>);
  };

  return { formRef, formKey: `${tool?.name}#${loads}`, initialArgs, runNow, loadScenario };
}
