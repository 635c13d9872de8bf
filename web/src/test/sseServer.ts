// A loopback HTTP server for tests of the event-stream client: it records every request
// (path and headers) and answers each with what the test queued — an SSE stream it can write
// to and end, or a status — so a test drives reconnects with real fetch and real SSE bytes.
// Tests only; it must not be imported by the app.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  lastEventId: string | undefined;
  authorization: string | undefined;
}

/** An open SSE response: write events, then end it (the client sees the stream close). */
export interface OpenStream {
  send(data: string, id?: number | string): void;
  end(): void;
}

type Answer = { status: number; body?: string; type?: string } | ((s: OpenStream) => void);

export interface SseServer {
  base: string;
  requests: SeenRequest[];
  /** Answers the next unanswered request (in order). A function gets an open SSE stream. */
  answer(a: Answer): void;
  /** Resolves with the n-th request (0-based) once it arrived, or rejects after `ms`. */
  request(n: number, ms?: number): Promise<SeenRequest>;
  close(): Promise<void>;
}

export async function startSseServer(): Promise<SseServer> {
  const requests: SeenRequest[] = [];
  const answers: Answer[] = [];
  const waiting: http.ServerResponse[] = [];
  const arrived: (() => void)[] = [];
  const open = new Set<http.ServerResponse>();

  const reply = (res: http.ServerResponse, a: Answer) => {
    if (typeof a !== 'function') {
      res.writeHead(a.status, { 'content-type': a.type ?? 'application/json' });
      res.end(a.body ?? '');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    open.add(res);
    a({
      send: (data, id) => res.write(`${id !== undefined ? `id: ${id}\n` : ''}data: ${data}\n\n`),
      end: () => {
        open.delete(res);
        res.end();
      },
    });
  };

  const server = http.createServer((req, res) => {
    const header = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : undefined);
    requests.push({ path: req.url ?? '', lastEventId: header('last-event-id'), authorization: header('authorization') });
    arrived.splice(0).forEach((f) => f());
    const a = answers.shift();
    if (a) reply(res, a);
    else waiting.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;

  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    answer(a) {
      const res = waiting.shift();
      if (res) reply(res, a);
      else answers.push(a);
    },
    request(n, ms = 5000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`request ${n} did not arrive within ${ms} ms (saw ${requests.length})`)), ms);
        const check = () => {
          if (requests.length > n) {
            clearTimeout(deadline);
            resolve(requests[n]);
          } else arrived.push(check);
        };
        check();
      });
    },
    async close() {
      open.forEach((r) => r.end());
      waiting.forEach((r) => r.destroy());
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
