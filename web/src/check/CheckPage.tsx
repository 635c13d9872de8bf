// The Check page: `mcplab check` from the browser on any configured server, with the CLI's
// options — protocol era (`auto` checks every era the server speaks, on fresh connections),
// directory readiness, host profiles and fuzzing (the spec and security sets always run).
// Results: a servers × hosts matrix of verdicts, and each report's findings grouped by rule
// set and era (Findings.tsx), linked to their frames in the traffic panel and to their source,
// a fuzz input that failed with "call again"; the report saved as JSON or, rendered by the API
// like the CLI's files, as JUnit, SARIF or Markdown.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from '../api/client';
import type { CheckExportFormat, HostProfile, RuleSet } from '../api/types.gen';
import { useSelectedServer, useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { CopyButton } from '../ui/CopyButton';
import { EmptyState } from '../ui/States';
import { Findings } from './Findings';
import { HostMatrix } from './HostMatrix';
import { DEFAULT_FORM, cliOf, download, downloadAs, runPageCheck, usePageChecks, type CheckForm, type EraChoice } from './run';
import './check.css';

const ERAS: [EraChoice, string][] = [
  ['auto', 'auto: every era it speaks'],
  ['2026-07-28', '2026-07-28'],
  ['2025-11-25', '2025-11-25'],
  ['2025-06-18', '2025-06-18'],
  ['2025-03-26', '2025-03-26'],
  ['live', 'the live connection, in its era'],
];
const EXPORTS: [CheckExportFormat, string][] = [
  ['junit', 'JUnit'],
  ['sarif', 'SARIF'],
  ['markdown', 'Markdown'],
];
const READINESS: [RuleSet, string][] = [
  ['readiness-claude', 'Anthropic connector directory'],
  ['readiness-openai', 'OpenAI app directory'],
];

export function CheckPage() {
  const { list } = useServers();
  const selected = useSelectedServer();
  const names = (list ?? []).map((v) => v.config.name);
  const [picked, setPicked] = useState<string | null>(null);
  const server = picked ?? (selected && names.includes(selected) ? selected : (names[0] ?? null));
  const [form, setForm] = useState<CheckForm>(DEFAULT_FORM);
  const checks = usePageChecks();
  const current = server ? checks[server] : undefined;
  const hosts = useQuery({ queryKey: ['hosts'], queryFn: () => request<HostProfile[]>('GET', '/api/hosts') }).data ?? [];
  const edit = (p: Partial<CheckForm>) => setForm((f) => ({ ...f, ...p }));
  const toggle = <T,>(list: T[], v: T) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  if (!names.length) return <EmptyState page="check" title="No servers configured">Add a server on the Servers page, then check it here.</EmptyState>;
  return (
    <div className="page check-page" data-testid="check-page">
      <div className="section-head">
        <h2>Check</h2>
        <span className="muted small">the referee a server must pass before it ships: spec and security always, hosts, directories and fuzzing on request</span>
      </div>
      <form className="check-form" onSubmit={(e) => (e.preventDefault(), server && void runPageCheck(server, form))}>
        <label className="field">
          <span className="field-label">Server</span>
          <select value={server ?? ''} onChange={(e) => setPicked(e.target.value)} data-testid="check-server">
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Protocol</span>
          <select value={form.era} onChange={(e) => edit({ era: e.target.value as EraChoice })} data-testid="check-era">
            {ERAS.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="field">
          <legend className="field-label">Directories</legend>
          {READINESS.map(([set, label]) => (
            <label key={set} className="check-option">
              <input type="checkbox" checked={form.readiness.includes(set)} onChange={() => edit({ readiness: toggle(form.readiness, set) })} data-testid={`check-set-${set}`} /> {label}
            </label>
          ))}
        </fieldset>
        <fieldset className="field">
          <legend className="field-label">Hosts</legend>
          {hosts.map((h) => (
            <label key={h.name} className="check-option">
              <input type="checkbox" checked={form.hosts.includes(h.name)} onChange={() => edit({ hosts: toggle(form.hosts, h.name) })} data-testid={`check-host-${h.name}`} /> {h.title || h.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="field check-fuzz">
          <legend className="field-label">Fuzzing (read-only tools, plus those named)</legend>
          <label>
            inputs per tool <input type="number" min={0} max={500} value={form.fuzz} onChange={(e) => edit({ fuzz: Math.max(0, Number(e.target.value) || 0) })} data-testid="check-fuzz" />
          </label>
          <label>
            seed <input type="number" min={0} value={form.seed} onChange={(e) => edit({ seed: Math.max(0, Number(e.target.value) || 0) })} data-testid="check-seed" />
          </label>
          <label>
            also fuzz <input type="text" placeholder="tool names" value={form.fuzzTools} onChange={(e) => edit({ fuzzTools: e.target.value })} data-testid="check-fuzz-tools" />
          </label>
        </fieldset>
        <div className="check-run">
          <Button type="submit" variant="primary" busy={current?.running} disabled={!server} data-testid="check-run">
            {current?.running ? 'Checking…' : 'Run check'}
          </Button>
          {server && (
            <span className="muted small mono" data-testid="check-cli">
              {cliOf(server, form)} <CopyButton text={() => cliOf(server, form)} />
            </span>
          )}
        </div>
      </form>
      {current?.error && (
        <div className="inline-error" role="alert" data-testid="check-error">
          {current.error}
        </div>
      )}
      <HostMatrix checks={checks} />
      {current?.report && (
        <section data-testid="check-report">
          <div className="section-head">
            <h3>{current.report.server}</h3>
            <span className="muted small" data-testid="check-page-summary">
              {(['error', 'warning', 'info'] as const).map((s) => `${current.report!.findings.filter((f) => f.severity === s).length} ${s}`).join(' · ')} · eras{' '}
              {current.report.eras.map((e) => `${e.revision}${e.connected ? '' : ' (not connected)'}`).join(', ')}
            </span>
            <span className="spacer" />
            <Button small variant="ghost" onClick={() => download(current.report!)} data-testid="check-download">
              Save JSON
            </Button>
            {EXPORTS.map(([format, label]) => (
              <Button key={format} small variant="ghost" onClick={() => void downloadAs(current.report!, format).catch(() => undefined)} data-testid={`check-export-${format}`}>
                {label}
              </Button>
            ))}
          </div>
          {current.report.notes.map((n) => (
            <div key={n} className="muted small">
              {n}
            </div>
          ))}
          <Findings report={current.report} server={current.report.server} />
        </section>
      )}
    </div>
  );
}
