// The CSP violations an app (or MCP-UI resource) ran into, as the host lists them.
import type { ReactNode } from 'react';
import type { CspViolation } from './host';

export function Violations({ violations, title }: { violations: CspViolation[]; title: ReactNode }) {
  if (!violations.length) return null;
  return (
    <div className="app-violations small" data-testid="app-violations" role="alert">
      {title}
      <ul>
        {violations.map((v, i) => (
          <li key={i} data-testid="app-violation" data-directive={v.directive}>
            <code>{v.directive}</code> blocked <code>{v.blockedUri || '(inline)'}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
