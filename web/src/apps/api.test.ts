import { describe, expect, it } from 'vitest';
import { appLabel, appOrigin, uiSiteProblem } from './api';

const at = (host: string) => ({ hostname: host.split(':')[0], host, port: host.split(':')[1] ?? '' }) as Location;

describe('app origins', () => {
  it('gives every app a fresh label the sandbox accepts', () => {
    const a = appLabel();
    const b = appLabel();
    expect(a).toMatch(/^[a-z0-9]{20}$/);
    expect(a).not.toBe(b);
    expect(appOrigin('http://{label}.localhost:6275', 'abcdefghij0123456789')).toBe('http://abcdefghij0123456789.localhost:6275');
    expect(appOrigin('http://192.168.1.5:6275')).toBe('http://192.168.1.5:6275');
  });

  it('refuses to show apps when the UI is on their site', () => {
    expect(uiSiteProblem(true, at('127.0.0.1:6274'))).toBeNull();
    expect(uiSiteProblem(true, at('localhost:6274'))).toMatch(/http:\/\/127\.0\.0\.1:6274\//);
    expect(uiSiteProblem(true, at('x.localhost:6274'))).not.toBeNull();
    // Shared mode has no *.localhost origins to keep apart.
    expect(uiSiteProblem(false, at('localhost:6274'))).toBeNull();
  });
});
