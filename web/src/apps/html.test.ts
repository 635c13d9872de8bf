// Tests for src/apps/html.ts: script insertion into app documents, the CSP reporter, base64.
import { describe, expect, it } from 'vitest';
import { cspReporterSource, decodeBase64Utf8, prepareAppHtml } from './html';

const S = ['window.A=1', 'window.B=2'];
const INSERTED = '<script>window.A=1</script><script>window.B=2</script>';

/** The host scripts come first, in order, before the first page <script>. */
function expectFirst(out: string) {
  const a = out.indexOf('<script>window.A=1</script>');
  const b = out.indexOf('<script>window.B=2</script>');
  expect(a).toBeGreaterThanOrEqual(0);
  expect(b).toBe(a + '<script>window.A=1</script>'.length);
  const page = out.search(/<script(?![^>]*>window\.[AB]=)/i);
  if (page >= 0) expect(a).toBeLessThan(page);
}

describe('prepareAppHtml', () => {
  it('inserts right after <head> in a full document', () => {
    const html = '<!doctype html><html><head><title>x</title><script>page()</script></head><body></body></html>';
    const out = prepareAppHtml(html, { scripts: S });
    expect(out).toBe(`<!doctype html><html><head>${INSERTED}<title>x</title><script>page()</script></head><body></body></html>`);
    expectFirst(out);
  });

  it('handles <html> and <head> with attributes, uppercase, and a > inside a quoted attribute', () => {
    const html = '<!DOCTYPE html>\n<HTML lang="en" data-x="a>b">\n<HEAD data-y=\'1>2\'>\n<SCRIPT src="x.js"></SCRIPT></HEAD></HTML>';
    const out = prepareAppHtml(html, { scripts: S });
    expect(out).toContain(`<HEAD data-y='1>2'>${INSERTED}\n<SCRIPT`);
    expectFirst(out);
  });

  it('creates <head> when missing, after <html>', () => {
    const html = '<html lang="en"><body><script>page()</script></body></html>';
    const out = prepareAppHtml(html, { scripts: S });
    expect(out).toBe(`<html lang="en"><head>${INSERTED}</head><body><script>page()</script></body></html>`);
    expectFirst(out);
  });

  it('handles a fragment with no doctype, html or head', () => {
    const html = '<div id="root"></div><script type="module">page()</script>';
    const out = prepareAppHtml(html, { scripts: S });
    expect(out).toBe(`<head>${INSERTED}</head>${html}`);
    expectFirst(out);
  });

  it('puts a head after a doctype when there is no <html>', () => {
    const out = prepareAppHtml('<!doctype html><script>page()</script>', { scripts: S });
    expect(out).toBe(`<!doctype html><head>${INSERTED}</head><script>page()</script>`);
  });

  it('skips leading comments (and never inserts inside one)', () => {
    const html = '\ufeff<!-- <head> fake --><!doctype html><!-- c2 --><html><!-- <head> --><head><script>page()</script></head></html>';
    const out = prepareAppHtml(html, { scripts: S });
    expect(out).toBe(html.replace('<head><script>page()', `<head>${INSERTED}<script>page()`));
    expectFirst(out);
  });

  it('does not mistake <header> for <head>', () => {
    const out = prepareAppHtml('<html><header>h</header><script>page()</script></html>', { scripts: S });
    expect(out).toBe(`<html><head>${INSERTED}</head><header>h</header><script>page()</script></html>`);
  });

  it('inserts before an unterminated comment rather than inside it', () => {
    const out = prepareAppHtml('<!-- oops <p>x</p>', { scripts: S });
    expect(out.startsWith(`<head>${INSERTED}</head><!--`)).toBe(true);
  });

  it('handles an empty document and no scripts', () => {
    expect(prepareAppHtml('', { scripts: S })).toBe(`<head>${INSERTED}</head>`);
    expect(prepareAppHtml('<p>x</p>', { scripts: [] })).toBe('<p>x</p>');
  });

  it('neutralises </script> inside a script source', () => {
    const out = prepareAppHtml('<head></head>', { scripts: ['var s = "</script><b>";'] });
    expect(out).toBe('<head><script>var s = "<\\/script><b>";</script></head>');
  });
});

describe('cspReporterSource', () => {
  it('posts deduplicated violations to the parent', () => {
    const doc = new EventTarget();
    const posted: unknown[] = [];
    const win = Object.assign(new EventTarget(), { parent: { postMessage: (m: unknown, t: string) => posted.push([m, t]) } });
    new Function('window', 'document', 'console', cspReporterSource())(win, doc, { error: () => undefined });
    const violation = (blocked: string) =>
      Object.assign(new Event('securitypolicyviolation'), {
        effectiveDirective: 'img-src', violatedDirective: 'img-src', blockedURI: blocked,
        sourceFile: 'about:srcdoc', lineNumber: 3, sample: '', disposition: 'enforce',
      });
    doc.dispatchEvent(violation('https://a.example/x.png'));
    doc.dispatchEvent(violation('https://a.example/x.png'));
    doc.dispatchEvent(violation('https://b.example/y.png'));
    expect(posted).toHaveLength(2);
    expect(posted[0]).toEqual([{ mcplabCspViolation: {
      directive: 'img-src', blockedUri: 'https://a.example/x.png', sourceFile: 'about:srcdoc',
      line: 3, sample: '', disposition: 'enforce',
    } }, '*']);
  });
});

describe('app error reporting', () => {
  it('reports uncaught errors, rejections and console.error, not resource load errors', () => {
    const doc = new EventTarget();
    const posted: any[] = [];
    const win = Object.assign(new EventTarget(), { parent: { postMessage: (m: unknown) => posted.push(m) } });
    const fakeConsole = { error: (..._a: unknown[]) => undefined };
    new Function('window', 'document', 'console', cspReporterSource())(win, doc, fakeConsole);
    win.dispatchEvent(Object.assign(new Event('error'), { message: 'boom', filename: 'about:srcdoc', lineno: 7, error: null }));
    const img = Object.assign(new Event('error'), { message: '' });
    Object.defineProperty(img, 'target', { value: { tagName: 'IMG' } });
    win.dispatchEvent(img);
    win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'nope' }));
    fakeConsole.error('bad', { a: 1 });
    expect(posted.map((m) => m.mcplabAppError)).toEqual([
      { kind: 'error', message: 'boom', source: 'about:srcdoc', line: 7 },
      { kind: 'unhandledrejection', message: 'nope', source: null, line: null },
      { kind: 'console.error', message: 'bad {"a":1}', source: null, line: null },
    ]);
  });
});

describe('decodeBase64Utf8', () => {
  it('decodes UTF-8, URL-safe alphabet, missing padding and whitespace', () => {
    const text = 'héllo → 世界 <html>';
    const b64 = Buffer.from(text, 'utf8').toString('base64');
    expect(decodeBase64Utf8(b64)).toBe(text);
    expect(decodeBase64Utf8(Buffer.from(text).toString('base64url'))).toBe(text);
    expect(decodeBase64Utf8(b64.slice(0, 10) + '\n' + b64.slice(10))).toBe(text);
  });
});
