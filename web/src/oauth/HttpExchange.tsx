// One HTTP exchange of a flow (already masked by the server): request line, headers and body,
// then the response's status, headers and body. JSON is pretty-printed, form bodies one
// parameter per line.
import type { OAuthHttpExchange } from '../api/types.gen';
import { CopyButton } from '../ui/CopyButton';
import { HeadersTable } from '../ui/HeadersTable';
import { duration, prettyBody, statusTone } from './steps';

function Headers({ headers }: { headers: [string, string][] }) {
  if (headers.length === 0) return <div className="muted small">no headers</div>;
  return <HeadersTable headers={headers} className="oauth-headers" />;
}

function Body({ body, headers }: { body: string | null; headers: [string, string][] }) {
  if (body === null || body === '') return <div className="muted small">no body</div>;
  const { text, kind } = prettyBody(body, headers);
  return (
    <div className="oauth-body">
      <div className="oauth-body-tools">
        <span className="badge">{kind}</span>
        <CopyButton text={() => text} />
      </div>
      <pre className={`oauth-body-text oauth-body-${kind}`}>{text}</pre>
    </div>
  );
}

export function HttpExchange({ http }: { http: OAuthHttpExchange }) {
  const tone = statusTone(http);
  return (
    <div className="oauth-http">
      <section className="oauth-http-part" data-testid="oauth-http-request">
        <div className="oauth-http-line">
          <span className="oauth-http-label">Request</span>
          <span className="mono">
            <strong>{http.method}</strong> <span className="wrap-any">{http.url}</span>
          </span>
        </div>
        <Headers headers={http.requestHeaders} />
        <Body body={http.requestBody} headers={http.requestHeaders} />
      </section>
      <section className="oauth-http-part" data-testid="oauth-http-response">
        <div className="oauth-http-line">
          <span className="oauth-http-label">Response</span>
          {http.status !== null ? <span className={`oauth-status tone-${tone}`}>{http.status}</span> : <span className="oauth-status tone-err">no response</span>}
          <span className="muted small">{duration(http.durationMs)}</span>
        </div>
        {http.error && <div className="inline-error">{http.error}</div>}
        {http.status !== null && (
          <>
            <Headers headers={http.responseHeaders} />
            <Body body={http.responseBody} headers={http.responseHeaders} />
          </>
        )}
      </section>
    </div>
  );
}
