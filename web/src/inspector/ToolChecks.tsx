// A tool's "Checks" section: what `mcplab check`'s rules about tool definitions say of it
// (toolMarks.ts), folded to one line ("Checks: 0 errors, 1 warning") that keeps its height
// while they load; open, each finding's message, fix and source, and the Check page for the
// whole report (the server as a whole, calls, hosts, directories).
import { FindingRow } from '../check/Findings';
import type { ToolMarksState } from './toolMarks';
import { findingsSummary, toolMark } from './toolMarks';

export function ToolChecks({ checks, tool }: { checks: ToolMarksState; tool: string }) {
  const findings = checks.byTool ? (checks.byTool.get(tool) ?? []) : null;
  const summary = checks.error
    ? 'could not run'
    : findings === null
      ? 'checking…'
      : findings.length
        ? findingsSummary(findings)
        : 'no findings';
  const mark = toolMark(findings ?? undefined);
  return (
    <details className={`tool-checks${mark ? ` tool-checks-${mark.severity}` : ''}`} data-testid="tool-checks" data-state={checks.error ? 'error' : findings === null ? 'loading' : 'ready'}>
      <summary data-testid="tool-checks-summary">Checks: {summary}</summary>
      {checks.error && <div className="muted small">{checks.error}</div>}
      {findings && findings.length > 0 && (
        <ul className="check-findings">
          {findings.map((f, i) => (
            <FindingRow key={i} f={f} />
          ))}
        </ul>
      )}
      {findings && findings.length === 0 && <div className="muted small">The spec and security rules about tool definitions find nothing in this one.</div>}
      <div className="small">
        <a href="#/check" data-testid="tool-checks-report">
          The whole report on the Check page
        </a>
      </div>
    </details>
  );
}
