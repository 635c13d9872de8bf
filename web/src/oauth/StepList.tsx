// The steps of a flow as they happened, grouped by phase: title, kind, detail, what was
// discovered or chosen (`data`), the fix of a failure or warning, and for HTTP steps the
// request and response (collapsed).
import { useEffect, useRef } from 'react';
import type { OAuthStep } from '../api/types.gen';
import { JsonTree } from '../ui/JsonTree';
import { HttpExchange } from './HttpExchange';
import { KIND_LABEL, PARTY_LABEL, PHASE_LABEL, authorizationUrlOf, duration, httpLabel, kindTone, statusTone } from './steps';

/** `compact`: what was discovered or chosen starts collapsed too (a server's sign-in history). */
export function StepList({
  steps,
  focusSeq,
  idPrefix = 'oauth-step-',
  running,
  compact,
}: {
  steps: OAuthStep[];
  focusSeq?: number | null;
  idPrefix?: string;
  running?: boolean;
  compact?: boolean;
}) {
  const groups: { phase: OAuthStep['phase']; steps: OAuthStep[] }[] = [];
  for (const s of steps) {
    const last = groups[groups.length - 1];
    if (last && last.phase === s.phase) last.steps.push(s);
    else groups.push({ phase: s.phase, steps: [s] });
  }
  return (
    <div className="oauth-steps" data-testid="oauth-steps">
      {groups.map((g) => (
        <section key={`${g.phase}-${g.steps[0].seq}`} className="oauth-phase" data-phase={g.phase}>
          <h4 className="oauth-phase-title">{PHASE_LABEL[g.phase]}</h4>
          <ol className="oauth-step-list">
            {g.steps.map((s) => (
              <StepItem key={s.seq} step={s} focused={focusSeq === s.seq} id={`${idPrefix}${s.seq}`} compact={compact} />
            ))}
          </ol>
        </section>
      ))}
      {running && (
        <div className="oauth-step-next muted small">
          <span className="spinner" aria-hidden="true" /> waiting for the next step…
        </div>
      )}
    </div>
  );
}

function dataIsSmall(data: unknown): boolean {
  return JSON.stringify(data).length < 320;
}

function StepItem({ step, focused, id, compact }: { step: OAuthStep; focused: boolean; id: string; compact?: boolean }) {
  const ref = useRef<HTMLLIElement>(null);
  const httpRef = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (!focused) return;
    if (httpRef.current) httpRef.current.open = true;
    ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [focused]);
  const tone = kindTone(step.kind);
  const authUrl = authorizationUrlOf(step);
  const hasData = step.data !== null && step.data !== undefined && !(typeof step.data === 'object' && Object.keys(step.data).length === 0);
  return (
    <li
      ref={ref}
      id={id}
      className={`oauth-step kind-${step.kind}${focused ? ' focused' : ''}`}
      data-testid="oauth-step"
      data-seq={step.seq}
      data-kind={step.kind}
      data-phase={step.phase}
    >
      <div className="oauth-step-head">
        <span className="oauth-step-seq" title={`Step ${step.seq}`}>
          {step.seq}
        </span>
        <span className={`oauth-kind tone-${tone}`}>{KIND_LABEL[step.kind]}</span>
        <span className="oauth-step-title" data-testid="oauth-step-title">
          {step.title}
        </span>
        {step.http && (
          <span className="oauth-step-http">
            <span className="mono">{httpLabel(step.http)}</span>
            <span className={`oauth-status tone-${statusTone(step.http)}`}>{step.http.status ?? 'no response'}</span>
            <span className="muted small">{duration(step.http.durationMs)}</span>
          </span>
        )}
      </div>
      {step.from !== step.to && (
        <div className="oauth-step-parties">
          {PARTY_LABEL[step.from]} → {PARTY_LABEL[step.to]}
        </div>
      )}
      {step.detail && <p className="oauth-step-detail">{step.detail}</p>}
      {step.fix && (
        <div className={`oauth-fix${step.kind === 'warning' ? ' oauth-fix-warn' : ''}`} data-testid="oauth-step-fix">
          <span className="oauth-fix-label">How to fix</span>
          <span>{step.fix}</span>
        </div>
      )}
      {authUrl && (
        <div className="oauth-step-url small">
          <span className="muted">Authorization URL </span>
          <span className="mono wrap-any">{authUrl}</span>
        </div>
      )}
      {hasData && (
        <details className="oauth-step-data" open={(!compact && dataIsSmall(step.data)) || undefined}>
          <summary className="small">{step.kind === 'chose' ? 'Why' : step.kind === 'discovered' ? 'What was found' : 'Data'}</summary>
          <JsonTree value={step.data} expandDepth={1} />
        </details>
      )}
      {step.http && (
        <details className="oauth-step-exchange" ref={httpRef} data-testid="oauth-step-http">
          <summary className="small">Request and response</summary>
          <HttpExchange http={step.http} />
        </details>
      )}
    </li>
  );
}
