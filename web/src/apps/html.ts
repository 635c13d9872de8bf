// Owns the preparation of an app's HTML document before it is handed to the sandbox proxy:
// inserting host scripts (the window.openai shim, the CSP-violation reporter) as the very first
// children of <head> so they run before any page script, the reporter's source, and decoding
// of base64 (`blob`) resource contents as UTF-8.

/** Keeps a script body from closing its <script> element early. */
function guardScript(src: string): string {
  return src.replace(/<\/(script)/gi, '<\\/$1');
}

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\ufeff';

/** Index just past `<name ...>` if `html` has that start tag at `i` (case-insensitive), else -1. */
function startTagEnd(html: string, i: number, name: string): number {
  if (html[i] !== '<' || html.slice(i + 1, i + 1 + name.length).toLowerCase() !== name) return -1;
  let j = i + 1 + name.length;
  const next = html[j];
  if (next !== undefined && next !== '>' && next !== '/' && !isSpace(next)) return -1;
  let quote: string | null = null;
  for (; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return j + 1;
    }
  }
  return -1;
}

/** Skips whitespace, comments, a doctype and processing-instruction-like bogus comments. */
function skipPrologue(html: string, i: number, allowDoctype: boolean): number {
  for (;;) {
    while (i < html.length && isSpace(html[i])) i++;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      if (end < 0) return i; // unterminated comment: insert before it, never inside
      i = end + 3;
    } else if (allowDoctype && /^<!doctype/i.test(html.slice(i, i + 9))) {
      const end = html.indexOf('>', i);
      if (end < 0) return i;
      i = end + 1;
    } else if (html.startsWith('<?', i)) {
      const end = html.indexOf('>', i);
      if (end < 0) return i;
      i = end + 1;
    } else {
      return i;
    }
  }
}

/**
 * Inserts `opts.scripts` (in order, each as `<script>…</script>`) as the first children of
 * `<head>`, creating `<head>` when the document has none before its content.
 */
export function prepareAppHtml(html: string, opts: { scripts: string[] }): string {
  if (opts.scripts.length === 0) return html;
  const tags = opts.scripts.map((s) => `<script>${guardScript(s)}</script>`).join('');
  let i = skipPrologue(html, 0, true);
  const htmlEnd = startTagEnd(html, i, 'html');
  if (htmlEnd >= 0) i = skipPrologue(html, htmlEnd, false);
  const headEnd = startTagEnd(html, i, 'head');
  if (headEnd >= 0) return html.slice(0, headEnd) + tags + html.slice(headEnd);
  return html.slice(0, i) + `<head>${tags}</head>` + html.slice(i);
}

/**
 * Source of an IIFE reporting CSP violations to the parent (the sandbox proxy) as
 * `{ mcplabCspViolation: {...} }` — deliberately not JSON-RPC; the proxy converts it.
 * Identical (directive, blockedUri) pairs are reported once.
 */
export function cspReporterSource(): string {
  return `(function () {
  var seen = {};
  var post = function (m) { try { window.parent.postMessage(m, "*"); } catch (err) { /* parent gone */ } };
  document.addEventListener("securitypolicyviolation", function (e) {
    var directive = e.effectiveDirective || e.violatedDirective;
    var key = directive + " " + e.blockedURI;
    if (Object.prototype.hasOwnProperty.call(seen, key)) return;
    seen[key] = true;
    post({ mcplabCspViolation: { directive: directive, blockedUri: e.blockedURI,
      sourceFile: e.sourceFile, line: e.lineNumber, sample: e.sample, disposition: e.disposition } });
  });
  var errors = 0;
  var report = function (kind, message, source, line) {
    if (errors++ >= 50) return;
    post({ mcplabAppError: { kind: kind, message: String(message).slice(0, 2000), source: source || null, line: typeof line === "number" ? line : null } });
  };
  window.addEventListener("error", function (e) {
    if (e && e.target && e.target !== window && e.target.tagName) return; // resource load errors: CSP/network, reported elsewhere
    report("error", e.error && e.error.stack ? e.error.stack : e.message, e.filename, e.lineno);
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    report("unhandledrejection", r && r.stack ? r.stack : String(r));
  });
  var original = console.error;
  console.error = function () {
    try {
      var parts = [];
      for (var i = 0; i < arguments.length; i++) {
        var a = arguments[i];
        parts.push(a instanceof Error ? (a.stack || a.message) : typeof a === "string" ? a : JSON.stringify(a));
      }
      report("console.error", parts.join(" "));
    } catch (err) { /* unserializable */ }
    return original.apply(console, arguments);
  };
})();
`;
}

/** Decodes base64 (standard or URL-safe, padding optional, whitespace ignored) to a UTF-8 string. */
export function decodeBase64Utf8(b64: string): string {
  let s = b64.replace(/[\s]/g, '').replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4 !== 0) s += '=';
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
  return new TextDecoder('utf-8').decode(bytes);
}
