import { describe, expect, it } from 'vitest';
import { resolveLink } from './Markdown';

describe('resolveLink', () => {
  const base = 'demo://resource/static/document/architecture.md';
  it('resolves relative links against the resource URI', () => {
    expect(resolveLink('structure.md', base)).toBe('demo://resource/static/document/structure.md');
    expect(resolveLink('../other/x.md', base)).toBe('demo://resource/static/other/x.md');
    expect(resolveLink('page.html', 'https://example.test/docs/a.md')).toBe('https://example.test/docs/page.html');
  });
  it('keeps web links and drops script URLs', () => {
    expect(resolveLink('https://x.test/a', base)).toBe('https://x.test/a');
    expect(resolveLink('javascript:alert(1)', base)).toBe('');
    expect(resolveLink('data:text/html,hi', base)).toBe('');
  });
  it('drops relative and custom-scheme links outside a resource', () => {
    expect(resolveLink('structure.md')).toBe('');
    expect(resolveLink('demo://x')).toBe('');
    expect(resolveLink('#top')).toBe('#top');
  });
});
