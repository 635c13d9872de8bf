// A tool call's outcome: the protocol error, or the result's content blocks, its
// structuredContent checked against the tool's outputSchema, isError, and the duration.
import { useMemo, useState } from 'react';
import type { Tool } from '../api/client';
import type { CallOutcome } from '../api/types.gen';
import type { AppMessageChannel } from '../apps/appMessages';
import { McpUiResource } from '../apps/lazy';
import { embeddedUiResources } from '../apps/linkage';
import { JsonTree } from '../ui/JsonTree';
import { validateAgainst } from '../ui/schema';
import { ContentView } from './ContentView';

export function ToolResult({
  outcome,
  tool,
  server,
  onFollowUp,
}: {
  outcome: CallOutcome;
  tool: Tool;
  /** Where the call ran; MCP-UI resources in the result render (and act) against it. */
  server?: string;
  onFollowUp?: AppMessageChannel;
}) {
  const [raw, setRaw] = useState(false);
  const result = outcome.result as Record<string, any> | null;
  const isError = !!outcome.error || !!result?.isError;
  const structured = result?.structuredContent;
  const uiResources = useMemo(() => (server ? embeddedUiResources(result) : []), [server, result]);
  const schemaErrors = useMemo(() => {
    if (structured === undefined || !tool.outputSchema) return null;
    return validateAgainst(tool.outputSchema, structured);
  }, [structured, tool.outputSchema]);

  return (
    <div className={`result${isError ? ' result-error' : ''}`} data-testid="tool-result" data-error={isError ? 'true' : 'false'}>
      <div className="result-head">
        <strong>{outcome.error ? `Failed: ${outcome.error.kind}` : result?.isError ? 'Tool reported an error (isError)' : 'Result'}</strong>
        <span className="muted small" data-testid="tool-duration">
          {outcome.durationMs} ms
        </span>
        <span className="spacer" />
        {result && (
          <button type="button" className="linkish small" onClick={() => setRaw(!raw)} aria-pressed={raw} data-testid="tool-result-raw">
            {raw ? 'formatted' : 'raw JSON'}
          </button>
        )}
      </div>
      {outcome.error && (
        <div className="call-error" data-testid="tool-error">
          <div>{outcome.error.message}</div>
          {outcome.error.code !== null && <div className="small muted">JSON-RPC code {outcome.error.code}</div>}
          {outcome.error.data !== null && outcome.error.data !== undefined && <JsonTree value={outcome.error.data} />}
        </div>
      )}
      {server &&
        !raw &&
        uiResources.map((r, i) => <McpUiResource key={`${r.uri}#${i}`} server={server} resource={r} onFollowUp={onFollowUp} />)}
      {result &&
        (raw ? (
          <JsonTree value={result} expandDepth={4} />
        ) : (
          <>
            {Array.isArray(result.content) && result.content.length > 0 && <ContentView content={result.content} />}
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
                </div>
                {schemaErrors && schemaErrors.length > 0 && (
                  <ul className="field-errors">
                    {schemaErrors.map((e, i) => (
                      <li key={i}>{e}</li>
                    ))}
                  </ul>
                )}
                <JsonTree value={structured} expandDepth={3} />
              </div>
            )}
            {tool.outputSchema && structured === undefined && !isError && (
              <div className="inline-error small" data-testid="schema-missing">
                The tool declares an outputSchema but returned no structuredContent.
              </div>
            )}
            {!Array.isArray(result.content) && structured === undefined && <JsonTree value={result} />}
          </>
        ))}
    </div>
  );
}
