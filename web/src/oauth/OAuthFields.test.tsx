import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { OAuthFields, type OAuthField } from './OAuthFields';
import type { OAuthValues } from './form';

const IDS: Record<OAuthField, string> = { revision: 'rev', registration: 'reg', clientId: 'cid', clientSecret: 'sec', clientMetadataUrl: 'cimd', scope: 'scope' };
const EMPTY: OAuthValues = { revision: '', registration: '', clientId: '', clientSecret: '', clientMetadataUrl: '', scope: '' };

function Harness(props: { registrationDefault?: string; disabled?: boolean; emptyScope: 'hint' | 'placeholder' }) {
  const [v, setV] = useState<OAuthValues>(EMPTY);
  return (
    <form>
      <OAuthFields part="choices" values={v} onChange={(p) => setV((x) => ({ ...x, ...p }))} testIds={IDS} errors={{ clientId: <span data-testid="cid-error">bad id</span> }} {...props} />
      <OAuthFields part="client" values={v} onChange={(p) => setV((x) => ({ ...x, ...p }))} testIds={IDS} errors={{ clientId: <span data-testid="cid-error">bad id</span> }} {...props} />
      <output data-testid="values">{JSON.stringify(v)}</output>
    </form>
  );
}

const values = () => JSON.parse(screen.getByTestId('values').textContent ?? '{}') as OAuthValues;
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement | HTMLSelectElement;

describe('OAuthFields', () => {
  it('reports each field under its own key', () => {
    render(<Harness emptyScope="hint" registrationDefault="default (auto)" />);
    fireEvent.change(input('rev'), { target: { value: '2025-06-18' } });
    fireEvent.change(input('reg'), { target: { value: 'dcr' } });
    fireEvent.change(input('cid'), { target: { value: 'id-1' } });
    fireEvent.change(input('sec'), { target: { value: 's3' } });
    fireEvent.change(input('cimd'), { target: { value: 'https://c.example/client.json' } });
    fireEvent.change(input('scope'), { target: { value: 'a b' } });
    expect(values()).toEqual({ revision: '2025-06-18', registration: 'dcr', clientId: 'id-1', clientSecret: 's3', clientMetadataUrl: 'https://c.example/client.json', scope: 'a b' });
    expect(input('sec').getAttribute('type')).toBe('password');
  });

  it('offers an empty registration only with a default label', () => {
    const { unmount } = render(<Harness emptyScope="hint" />);
    expect([...(input('reg') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['auto', 'cimd', 'dcr', 'pre']);
    unmount();
    render(<Harness emptyScope="hint" registrationDefault="default (auto)" />);
    const opts = [...(input('reg') as HTMLSelectElement).options];
    expect(opts.map((o) => o.value)).toEqual(['', 'auto', 'cimd', 'dcr', 'pre']);
    expect(opts[0].textContent).toBe('default (auto)');
  });

  it('says what an empty scope means where it is asked to, shows errors, and disables every field', () => {
    const { unmount } = render(<Harness emptyScope="hint" />);
    expect(screen.getByText('(space-separated; empty: what the server asks for)')).toBeTruthy();
    expect(input('scope').getAttribute('placeholder')).toBeNull();
    expect(screen.getByTestId('cid-error').closest('label')?.querySelector('[data-testid="cid"]')).toBeTruthy();
    unmount();
    render(<Harness emptyScope="placeholder" disabled />);
    expect(screen.getByText('(space-separated)')).toBeTruthy();
    expect(input('scope').getAttribute('placeholder')).toBe('what the server asks for');
    expect(Object.values(IDS).every((id) => input(id).disabled)).toBe(true);
  });
});
