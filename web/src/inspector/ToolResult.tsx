// A tool call's outcome: the protocol error (a user cancel or a denied call is a neutral
// "cancelled"; a -32042 URL elicitation error offers its URLs), or the result's content
// blocks, its structuredContent checked against the tool's outputSchema, isError, and the
// duration, with copy and a raw view of the whole result.
import { useMemo, useState } from 'react';
import { adviceFor } from '../api/advice';
import type { CallToolResult, Tool } from '../api/client';
import type { CallOutcome } from '../api/types.gen';
import type { AppMessageChannel } from '../apps/appMessages';
import { McpUiResource } from '../apps/lazy';
import { embeddedUiResources } from '../apps/linkage';
import { Button } from '../ui/Button';
import { CopyButton } from '../ui/CopyButton';
import { JsonTree } from '../ui/JsonTree';
import { validateAgainst } from '../ui/schema';
import { ContentView } from './ContentView';
import { openInInspector } from './inspectorRoute';
import { outcomeStatus } from './history';
import { UrlElicitations, urlElicitations } from './UrlElicitations';
import { Ticks } from '../ui/Ticks';

export function ToolResult({
  outcome,
  tool,
  server,
  onFollowUp,
  failure,
}: {
  outcome: CallOutcome;
  tool: Tool;
  /** Says what failed instead of the error's kind (a chat's tool error has no MCP kind). */
  failure?: string;
  /** Where the call ran; MCP-UI resources in the result render (and act) against it. */
  server?: string;
  onFollowUp?: AppMessageChannel;
}) {
  const [raw, setRaw] = useState(false);
  const result = outcome.result as CallToolResult | null;
  const status = outcomeStatus(outcome);
  const structured = result?.structuredContent;
  const uiResources = useMemo(() => (server ? embeddedUiResources(result) : []), [server, result]);
  const schemaErrors = useMemo(() => {
    if (structured === undefined || !tool.outputSchema) return null;
    return validateAgainst(tool.outputSchema, structured);
  }, [structured, tool.outputSchema]);
  const urls = urlElicitations(outcome.error);
  const openResource = server ? (uri: string) => openInInspector('resources', server, uri) : undefined;
  const title = status === 'cancelled' ? 'Cancelled' : outcome.error ? `Failed: ${failure ?? outcome.error.kind}` : result?.isError ? 'Tool reported an error (isError)' : 'Result';

  return (
    <div className={`result result-${status}`} data-testid="tool-result" data-error={status === 'error' ? 'true' : 'false'} data-status={status}>
      <div className="result-head">
        <strong>{title}</strong>
        <span className="muted small nowrap" data-testid="tool-duration">
          {outcome.durationMs} ms
        </span>
        <span className="spacer" />
        {result && (
          <Button small variant="ghost" onClick={() => setRaw(!raw)} aria-pressed={raw} data-testid="tool-result-raw">
            {raw ? 'Formatted' : 'Raw JSON'}
          </Button>
        )}
        <CopyButton text={() => JSON.stringify(result ?? outcome.error, null, 2)} testId="tool-result-copy" label="Copy result" />
      </div>
      {outcome.error && (
        <div className={status === 'cancelled' ? 'call-cancelled' : 'call-error'} data-testid="tool-error">
          <div>
            <Ticks text={outcome.error.message} />
          </div>
          {adviceFor(outcome.error.kind) && (
            <div className="small" data-testid="tool-error-advice">
              {adviceFor(outcome.error.kind)}
            </div>
          )}
          {outcome.error.code !== null && <div className="small muted">JSON-RPC code {outcome.error.code}</div>}
          {urls.length > 0 && <UrlElicitations items={urls} />}
          {outcome.error.data !== null && outcome.error.data !== undefined && <JsonTree value={outcome.error.data} expandDepth={Infinity} />}
        </div>
      )}
      {server && !raw && uiResources.map((r, i) => <McpUiResource key={`${r.uri}#${i}`} server={server} resource={r} onFollowUp={onFollowUp} />)}
      {result &&
        (raw ? (
          <JsonTree value={result} expandDepth={Infinity} />
        ) : (
          <>
            {Array.isArray(result.content) && result.content.length > 0 && <ContentView content={result.content} onOpenResource={openResource} />}
            {structured !== undefined && (
              <div className="structured" data-testid="tool-structured">
                <div className="small section-label">
                  structuredContent
                  {schemaErrors === null ? (
                    tool.outputSchema ? null : <span className="badge">no outputSchema</span>
                  ) : schemaErrors.length === 0 ? (
                    <span className="badge badge-ok" data-testid="schema-valid">matches outputSchema</span>
                  ) : (
                    <span className="badge badge-err" data-testid="schema-mismatch">does not match outputSchema</span>
                  )}
                  <span className="spacer" />
                  <CopyButton text={() => JSON.stringify(structured, null, 2)} label="Copy" />
                </div>
                {schemaErrors && schemaErrors.length > 0 && (
                  <ul className="field-errors">
                    {schemaErrors.map((e, i) => (
                      <li key={i}>{e}</li>
                    ))}
                  </ul>
                )}
                <JsonTree value={structured} expandDepth={Infinity} />
              </div>
            )}
            {tool.outputSchema && structured === undefined && status === 'ok' && (
              <div className="inline-error small" data-testid="schema-missing">
                The tool declares an outputSchema but returned no structuredContent.
              </div>
            )}
            {!Array.isArray(result.content) && structured === undefined && <JsonTree value={result} expandDepth={Infinity} />}
          </>
        ))}
    </div>
  );
}
