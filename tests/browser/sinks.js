// Loopback listeners the browser tests judge by: a probe server that counts every request
// (what an app reached, as the server saw it), answering with CORS allowed so that only the
// sandbox's CSP can keep an app away from it.
import http from 'node:http';

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Starts the probe server on a free loopback port; `hits` lists the request paths,
 * `requests` each one's path and `Cookie` header (what a page handed a foreign listener). */
export function startProbeServer() {
  const hits = [];
  const requests = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url);
    requests.push({ url: req.url, cookie: req.headers.cookie ?? '' });
    if (req.url.endsWith('.png')) {
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'image/png' });
      res.end(PIXEL);
      return;
    }
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    res.end('reachable');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, hits, requests, close: () => server.close() });
    });
  });
}

/** Polls `check` (async, truthy when done) every 50 ms until `ms` pass; throws `what` then. */
export async function waitFor(what, check, ms = 20000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
