// The OAuth sign-in settings as form fields, written once for the debugger's form
// (`DebugForm.tsx`) and a server's form (`servers/ServerForm.tsx`): the protocol revision, how
// to get a client id, and the client's id, secret, metadata document URL and scopes. Each form
// keeps its own state, layout, test ids and checks; this draws the fields and reports edits.
import type { ReactNode } from 'react';
import type { OAuthRevision, RegistrationMethod } from '../api/types.gen';
import { REGISTRATIONS, REVISIONS, type OAuthValues } from './form';

export type OAuthField = keyof OAuthValues;

export interface OAuthFieldsProps {
  /** `choices`: the revision and registration selects; `client`: the client id, secret,
   * metadata document URL and scopes. A form places each part where its layout wants it. */
  part: 'choices' | 'client';
  values: OAuthValues;
  onChange: (patch: Partial<OAuthValues>) => void;
  /** Every field's `data-testid` (the browser tests' contract, see web/TESTIDS.md). */
  testIds: Record<OAuthField, string>;
  disabled?: boolean;
  /** A message under a field (the form's own checks). */
  errors?: Partial<Record<OAuthField, ReactNode>>;
  /** The label of an empty registration choice ("use the default"); without it the select
   * offers only the methods. */
  registrationDefault?: string;
  /** Where an empty scope's meaning is said: in the label's hint or as the placeholder. */
  emptyScope: 'hint' | 'placeholder';
}

const EMPTY_SCOPE = 'what the server asks for';

export function OAuthFields(props: OAuthFieldsProps) {
  return props.part === 'choices' ? <Choices {...props} /> : <Client {...props} />;
}

function Choices({ values, onChange, testIds, disabled, registrationDefault }: OAuthFieldsProps) {
  return (
    <>
      <label className="field">
        <span className="field-label">Protocol revision</span>
        <select value={values.revision} onChange={(e) => onChange({ revision: e.target.value as '' | OAuthRevision })} disabled={disabled} data-testid={testIds.revision}>
          <option value="">default (latest, with fallbacks)</option>
          {REVISIONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Client registration</span>
        <select value={values.registration} onChange={(e) => onChange({ registration: e.target.value as '' | RegistrationMethod })} disabled={disabled} data-testid={testIds.registration}>
          {registrationDefault !== undefined && <option value="">{registrationDefault}</option>}
          {REGISTRATIONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function Client({ values, onChange, testIds, disabled, errors, emptyScope }: OAuthFieldsProps) {
  return (
    <>
      <label className="field">
        <span className="field-label">
          Client id <span className="muted small">(pre-registered)</span>
        </span>
        <input value={values.clientId} onChange={(e) => onChange({ clientId: e.target.value })} disabled={disabled} className="mono" autoComplete="off" data-testid={testIds.clientId} />
        {errors?.clientId}
      </label>
      <label className="field">
        <span className="field-label">Client secret</span>
        <input type="password" value={values.clientSecret} onChange={(e) => onChange({ clientSecret: e.target.value })} disabled={disabled} autoComplete="off" data-testid={testIds.clientSecret} />
        {errors?.clientSecret}
      </label>
      <label className="field">
        <span className="field-label">Client ID Metadata Document URL</span>
        <input
          value={values.clientMetadataUrl}
          onChange={(e) => onChange({ clientMetadataUrl: e.target.value })}
          disabled={disabled}
          placeholder="https://example.com/client.json"
          className="mono"
          data-testid={testIds.clientMetadataUrl}
        />
        {errors?.clientMetadataUrl}
      </label>
      <label className="field">
        <span className="field-label">
          Scopes <span className="muted small">{emptyScope === 'hint' ? `(space-separated; empty: ${EMPTY_SCOPE})` : '(space-separated)'}</span>
        </span>
        <input value={values.scope} onChange={(e) => onChange({ scope: e.target.value })} disabled={disabled} placeholder={emptyScope === 'placeholder' ? EMPTY_SCOPE : undefined} className="mono" data-testid={testIds.scope} />
        {errors?.scope}
      </label>
    </>
  );
}
