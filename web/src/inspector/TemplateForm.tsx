// A resource template: one input per URI-template variable (with completions), the
// expanded URI, and the resource it names.
import { useState } from 'react';
import type { ResourceTemplate } from '../api/client';
import { Button } from '../ui/Button';
import { CompletingInput } from './CompletingInput';
import { ResourceViewer } from './ResourceViewer';
import { expandTemplate, templateVariables } from './uriTemplate';

export function TemplateForm({ server, template, completions, canSubscribe }: { server: string; template: ResourceTemplate; completions: boolean; canSubscribe: boolean }) {
  const vars = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const [uri, setUri] = useState<string | null>(null);
  const expanded = expandTemplate(template.uriTemplate, values);
  const missing = vars.filter((v) => !values[v]);

  return (
    <div className="template-form" data-testid="template-form">
      <div className="detail-head">
        <h2 className="mono wrap-any">{template.uriTemplate}</h2>
        {template.mimeType && <span className="badge">{template.mimeType}</span>}
      </div>
      {template.description && <div className="muted">{template.description}</div>}
      <form
        className="fields"
        onSubmit={(e) => {
          e.preventDefault();
          setUri(expanded);
        }}
      >
        {vars.map((v) => (
          <label key={v} className="field">
            <span className="field-label mono">{v}</span>
            <CompletingInput
              server={server}
              reference={{ type: 'ref/resource', uri: template.uriTemplate }}
              name={v}
              value={values[v] ?? ''}
              context={values}
              onChange={(val) => setValues((p) => ({ ...p, [v]: val }))}
              enabled={completions}
              testId={`template-arg-${v}`}
            />
          </label>
        ))}
        <div className="small muted mono wrap-any" data-testid="template-uri">
          → {expanded}
        </div>
        <div className="actions">
          <Button variant="primary" type="submit" disabled={missing.length > 0} data-testid="template-read" title={missing.length ? `Fill in ${missing.join(', ')}` : undefined}>
            Read
          </Button>
        </div>
      </form>
      {uri && <ResourceViewer key={uri} server={server} uri={uri} canSubscribe={canSubscribe} />}
    </div>
  );
}
