// @vitest-environment jsdom
import { afterAll, describe, expect, it } from 'vitest';
import { environmentShimSource } from './environmentShim';

const saved = {
  language: Object.getOwnPropertyDescriptor(Navigator.prototype, 'language'),
  languages: Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages'),
  DateTimeFormat: Intl.DateTimeFormat,
  NumberFormat: Intl.NumberFormat,
  Collator: Intl.Collator,
  toLocaleString: Date.prototype.toLocaleString,
  toLocaleDateString: Date.prototype.toLocaleDateString,
  toLocaleTimeString: Date.prototype.toLocaleTimeString,
  numberToLocale: Number.prototype.toLocaleString,
  localeCompare: String.prototype.localeCompare,
};

afterAll(() => {
  if (saved.language) Object.defineProperty(Navigator.prototype, 'language', saved.language);
  if (saved.languages) Object.defineProperty(Navigator.prototype, 'languages', saved.languages);
  Object.assign(Intl, { DateTimeFormat: saved.DateTimeFormat, NumberFormat: saved.NumberFormat, Collator: saved.Collator });
  Object.assign(Date.prototype, { toLocaleString: saved.toLocaleString, toLocaleDateString: saved.toLocaleDateString, toLocaleTimeString: saved.toLocaleTimeString });
  Number.prototype.toLocaleString = saved.numberToLocale;
  String.prototype.localeCompare = saved.localeCompare;
});

describe('the environment shim', () => {
  it('makes the host locale and time zone the document defaults, and follows changes', () => {
    new Function(environmentShimSource({ locale: 'de-DE', timeZone: 'Asia/Tokyo' }))();
    expect(navigator.language).toBe('de-DE');
    expect(navigator.languages).toEqual(['de-DE']);
    expect(new Intl.DateTimeFormat().resolvedOptions()).toMatchObject({ locale: 'de-DE', timeZone: 'Asia/Tokyo' });
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Asia/Tokyo');
    expect(new Intl.DateTimeFormat() instanceof Intl.DateTimeFormat).toBe(true);
    expect((1234.5).toLocaleString()).toBe('1.234,5');
    const noon = new Date(Date.UTC(2026, 0, 2, 12, 0, 0));
    expect(noon.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })).toBe('21:00');
    // An explicit locale or zone still wins.
    expect(new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions()).toMatchObject({ locale: 'en-US', timeZone: 'UTC' });
    expect((1234.5).toLocaleString('en-US')).toBe('1,234.5');

    const post = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, source: window.parent }));
    post({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { locale: 'fr-FR', timeZone: 'UTC' } });
    expect(navigator.language).toBe('fr-FR');
    expect(new Intl.DateTimeFormat().resolvedOptions()).toMatchObject({ locale: 'fr-FR', timeZone: 'UTC' });
    // The ui/initialize answer carries the host context too; junk is ignored.
    post({ jsonrpc: '2.0', id: 1, result: { hostContext: { locale: 'ja-JP' } } });
    expect(navigator.language).toBe('ja-JP');
    post({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { locale: 42, timeZone: '' } });
    expect(navigator.language).toBe('ja-JP');
  });
});
