// The sequence diagram of a flow: one lane per party that takes part (mcplab, browser, MCP
// server, authorization server, identity provider), one arrow per step from `from` to `to`
// (HTTP requests labelled with method, path and status; the client's own notes as a loop on
// its lane; failures in red). The step number beside each row selects the step in the list.
import { useEffect, useId, useRef, useState } from 'react';
import type { OAuthParty, OAuthStep } from '../api/types.gen';
import { PARTY_LABEL, httpLabel, lanes, partyHosts, statusTone } from './steps';

const GUTTER = 34;
const ROW = 30;
const TOP = 6;
const CHAR = 6.3;

function fit(text: string, px: number): string {
  const n = Math.max(4, Math.floor(px / CHAR));
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}

/** Centre of an arrow's label: over the arrow, moved in so it stays inside the diagram. */
function labelX(label: string, x1: number, x2: number, width: number, status: boolean): number {
  const w = Math.min(label.length * CHAR, width - GUTTER - 60) + (status ? 30 : 0);
  const lo = GUTTER + 4 + w / 2;
  const hi = width - 4 - w / 2;
  return Math.max(lo, Math.min(hi, (x1 + x2) / 2));
}

function tone(step: OAuthStep): string {
  if (step.kind === 'failed') return 'failed';
  if (step.kind === 'warning') return 'warn';
  if (step.kind === 'done') return 'done';
  if (step.kind === 'browser') return 'browser';
  return step.http ? 'http' : 'note';
}

export function SequenceDiagram({
  steps,
  serverUrl,
  running,
  focusSeq,
  onSelect,
}: {
  steps: OAuthStep[];
  serverUrl?: string;
  running?: boolean;
  focusSeq?: number | null;
  onSelect?: (seq: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(560);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.max(320, Math.round(e.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const parties = lanes(steps);
  const hosts = partyHosts(steps, serverUrl);
  const laneW = (width - GUTTER) / parties.length;
  const x = (p: OAuthParty) => GUTTER + laneW * (parties.indexOf(p) + 0.5);
  const rows = steps.length + (running ? 1 : 0);
  const height = TOP + rows * ROW + 10;
  const marker = (t: string) => `url(#${uid}-${t})`;

  return (
    <div className="oauth-diagram" ref={box} data-testid="oauth-diagram">
      <div className="oauth-lanes" style={{ gridTemplateColumns: `${GUTTER}px repeat(${parties.length}, minmax(0, 1fr))` }}>
        <span />
        {parties.map((p) => (
          <div key={p} className={`oauth-lane-head lane-${p}`} data-testid={`oauth-lane-${p}`}>
            <span className="oauth-lane-name">{PARTY_LABEL[p]}</span>
            {hosts[p] && <span className="oauth-lane-host mono">{hosts[p]}</span>}
          </div>
        ))}
      </div>
      <svg width={width} height={height} className="oauth-svg" role="img" aria-label="Sequence diagram of the flow">
        <defs>
          {['http', 'note', 'browser', 'failed', 'warn', 'done'].map((t) => (
            <marker key={t} id={`${uid}-${t}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" className={`oauth-head t-${t}`} />
            </marker>
          ))}
        </defs>
        {parties.map((p) => (
          <line key={p} x1={x(p)} x2={x(p)} y1={0} y2={height} className="oauth-lifeline" />
        ))}
        {steps.map((s, i) => {
          const y = TOP + i * ROW + 20;
          const t = tone(s);
          const select = () => onSelect?.(s.seq);
          const x1 = x(s.from);
          const x2 = x(s.to);
          const label = s.http ? httpLabel(s.http) : s.title;
          return (
            <g
              key={s.seq}
              className={`oauth-row t-${t}${focusSeq === s.seq ? ' focused' : ''}`}
              data-testid="oauth-arrow"
              data-seq={s.seq}
              data-from={s.from}
              data-to={s.to}
              data-kind={s.kind}
              data-status={s.http?.status ?? undefined}
              onClick={select}
            >
              <title>{`${s.seq}. ${s.title}${s.http ? ` — ${s.http.method} ${s.http.url} → ${s.http.status ?? 'no response'}` : ''}`}</title>
              <rect x={0} y={y - 20} width={width} height={ROW} className="oauth-row-bg" />
              <g
                className="oauth-seq"
                role="button"
                tabIndex={0}
                aria-label={`Step ${s.seq}: ${s.title}`}
                data-testid="oauth-diagram-step"
                data-seq={s.seq}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    select();
                  }
                }}
              >
                <circle cx={15} cy={y - 4} r={9} />
                <text x={15} y={y - 0.5} textAnchor="middle">
                  {s.seq}
                </text>
              </g>
              {s.from === s.to ? (
                <>
                  <path d={`M${x1},${y - 10} h16 v10 h-14`} className="oauth-arrow" markerEnd={marker(t)} fill="none" />
                  <text x={x1 + 22} y={y - 1} className="oauth-label">
                    {fit(label, width - x1 - 28)}
                  </text>
                </>
              ) : (
                <>
                  <line x1={x1} x2={x2} y1={y} y2={y} className="oauth-arrow" markerEnd={marker(t)} />
                  <text x={labelX(label, x1, x2, width, !!s.http)} y={y - 5} textAnchor="middle" className="oauth-label">
                    {fit(label, width - GUTTER - 60)}
                    {s.http && (
                      <tspan className={`oauth-label-status tone-${statusTone(s.http)}`} dx={5}>
                        {s.http.status ?? '✕'}
                      </tspan>
                    )}
                  </text>
                </>
              )}
            </g>
          );
        })}
        {running && (
          <circle cx={x('client')} cy={TOP + steps.length * ROW + 14} r={5} className="oauth-pending" />
        )}
      </svg>
    </div>
  );
}
