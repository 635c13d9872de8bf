// The playground's left panel, top part: which server and which tool with a UI, its input
// form, Run, and saved scenarios. A tool the server says fails on purpose is labelled so in
// the list. Picking is the page's business; this only shows and reports.
import type { RefObject } from 'react';
import type { Tool } from '../api/client';
import type { AppScenario } from '../api/types.gen';
import type { UiLink } from '../apps/linkage';
import { Button } from '../ui/Button';
import { SchemaForm, type SchemaFormHandle } from '../ui/SchemaForm';
import { expectedFailure } from './defaultTool';
import type { Emulation } from './devices';
import { Scenarios } from './Scenarios';

export interface ToolPanelProps {
  servers: string[];
  server: string;
  onServer: (s: string) => void;
  tools: Tool[] | null;
  toolsError: string | null;
  tool: Tool | null;
  link: UiLink | null;
  onTool: (name: string) => void;
  formRef: RefObject<SchemaFormHandle | null>;
  formKey: string;
  initialArgs?: Record<string, unknown>;
  hasRun: boolean;
  onRun: () => void;
  emulation: Emulation;
  lastArgs?: Record<string, unknown>;
  onScenario: (s: AppScenario) => void;
}

function toolLabel(t: Tool): string {
  const name = t.title ? `${t.title} (${t.name})` : t.name;
  const fails = expectedFailure(t);
  return fails ? `${name} — fails on purpose` : name;
}

export function ToolPanel(p: ToolPanelProps) {
  const { tool } = p;
  return (
    <>
      <label className="pg-field">
        <span>Server</span>
        <select value={p.server} onChange={(e) => p.onServer(e.target.value)} data-testid="pg-server">
          {p.servers.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {p.toolsError && <div className="inline-error small">{p.toolsError}</div>}
      {p.tools && p.tools.length === 0 && <p className="small muted">This server has no tool with a UI.</p>}
      {p.tools && p.tools.length > 0 && (
        <label className="pg-field">
          <span>Tool with a UI</span>
          <select value={tool?.name ?? ''} onChange={(e) => p.onTool(e.target.value)} data-testid="pg-tool">
            {p.tools.map((t) => (
              <option key={t.name} value={t.name}>
                {toolLabel(t)}
              </option>
            ))}
          </select>
        </label>
      )}
      <a className="small" href="#/apps" data-testid="pg-all-apps">
        Every server’s apps, as cards
      </a>
      {tool && (
        <>
          <div className="small muted mono pg-uri">{p.link?.uri}</div>
          <SchemaForm key={p.formKey} ref={p.formRef} schema={tool.inputSchema} initial={p.initialArgs} onSubmitShortcut={p.onRun} testId="pg-form" />
          <div className="pg-actions">
            <Button variant="primary" onClick={p.onRun} data-testid="pg-run" title="Ctrl+Enter in the form, or r anywhere else">
              {p.hasRun ? 'Re-run' : 'Run'}
            </Button>
            <span className="small muted">no model, no tokens · key: r</span>
          </div>
          <Scenarios
            current={{ server: p.server, tool: tool.name, arguments: () => p.formRef.current?.submit() ?? p.lastArgs ?? {}, conditions: p.emulation }}
            onLoad={p.onScenario}
          />
        </>
      )}
    </>
  );
}
