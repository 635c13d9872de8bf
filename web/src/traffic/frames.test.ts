import { describe, expect, it } from 'vitest';
import type { TrafficFrame } from '../api/types.gen';
import { FrameIndex, classify, findCallByRequests, findToolCall, matches, mergeBySeq, utf8Length } from './frames';

let seq = 0;
function frame(server: string, direction: 'outbound' | 'inbound', text: string, tsMs = 1000, kind: 'message' | 'note' = 'message'): TrafficFrame {
  return { seq: ++seq, server, tsMs, direction, text, kind } as TrafficFrame;
}

describe('classify', () => {
  it('recognises requests, notifications, responses and errors', () => {
    expect(classify(frame('a', 'outbound', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))).toMatchObject({ type: 'request', id: '1', method: 'tools/list' });
    expect(classify(frame('a', 'inbound', '{"jsonrpc":"2.0","method":"notifications/progress"}')).type).toBe('notification');
    expect(classify(frame('a', 'inbound', '{"jsonrpc":"2.0","id":"1","result":{}}')).id).toBe('"1"');
    expect(classify(frame('a', 'inbound', '{"jsonrpc":"2.0","id":1,"error":{"code":-1}}')).type).toBe('error');
  });
  it('flags text that does not parse', () => {
    const r = classify(frame('a', 'inbound', 'garbage {'));
    expect(r.type).toBe('unparsable');
    expect(r.problem).toBeTruthy();
    expect(classify(frame('a', 'inbound', '42')).type).toBe('unparsable');
    expect(classify({ ...frame('a', 'inbound', 'x'), kind: 'unparsable', error: 'bad' } as TrafficFrame).problem).toBe('bad');
  });
  it('reads a truncated frame from its start, sized by its whole length', () => {
    const cut = (text: string, fullBytes: number) => ({ ...frame('a', 'inbound', text), fullBytes }) as TrafficFrame;
    expect(classify(cut('{"jsonrpc":"2.0","id":7,"result":{"content":[{"id":9,"text":"aaaa', 90000))).toMatchObject({ type: 'response', id: '7', size: 90000 });
    expect(classify(cut('{"jsonrpc":"2.0","method":"notifications/message","params":{"id":3,"data":"x', 5000))).toMatchObject({ type: 'notification', method: 'notifications/message' });
    expect(classify(cut('{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"arguments":{"t":"', 5000))).toMatchObject({ type: 'request', id: '"r1"', method: 'tools/call' });
    const noId = classify(cut('{"jsonrpc":"2.0","result":{"id":4,"x":"', 5000));
    expect(noId.type).toBe('response');
    expect(noId.id).toBeUndefined();
    expect(classify(cut('{"jsonrpc":"2.0","id":2,"result":"x', 5000)).problem).toBeUndefined();
  });
  it('measures UTF-8 size', () => {
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});

describe('FrameIndex', () => {
  it('pairs requests and responses by id per server and direction', () => {
    const ix = new FrameIndex();
    const req = ix.add(frame('a', 'outbound', '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', 1000));
    ix.add(frame('b', 'inbound', '{"jsonrpc":"2.0","id":1,"result":{}}', 1010)); // other server
    const srvReq = ix.add(frame('a', 'inbound', '{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}', 1020));
    const res = ix.add(frame('a', 'inbound', '{"jsonrpc":"2.0","id":1,"result":{}}', 1050));
    const srvRes = ix.add(frame('a', 'outbound', '{"jsonrpc":"2.0","id":1,"result":{}}', 1100));
    expect(res.method).toBe('tools/call');
    expect(res.latencyMs).toBe(50);
    expect(req.latencyMs).toBe(50);
    expect(srvRes.method).toBe('sampling/createMessage');
    expect(srvReq.latencyMs).toBe(80);
    expect(ix.rows[1].latencyMs).toBeUndefined();
    expect([...ix.methods].sort()).toEqual(['sampling/createMessage', 'tools/call']);
  });
  it('does not pair ids of different JSON types', () => {
    const ix = new FrameIndex();
    ix.add(frame('a', 'outbound', '{"jsonrpc":"2.0","id":1,"method":"x"}'));
    expect(ix.add(frame('a', 'inbound', '{"jsonrpc":"2.0","id":"1","result":{}}')).latencyMs).toBeUndefined();
  });
  it('clears one server', () => {
    const ix = new FrameIndex();
    ix.add(frame('a', 'outbound', '{"id":1,"method":"x"}'));
    ix.add(frame('b', 'outbound', '{"id":1,"method":"x"}'));
    ix.clear('a');
    expect(ix.rows.map((r) => r.frame.server)).toEqual(['b']);
  });
});

describe('filters and merging', () => {
  it('filters by server, direction, method and text', () => {
    const r = classify(frame('a', 'outbound', '{"id":1,"method":"tools/call","params":{"name":"echo"}}'));
    const none = { server: '', direction: '' as const, method: '', search: '' };
    expect(matches(r, none)).toBe(true);
    expect(matches(r, { ...none, server: 'b' })).toBe(false);
    expect(matches(r, { ...none, direction: 'inbound' })).toBe(false);
    expect(matches(r, { ...none, method: 'TOOLS' })).toBe(true);
    expect(matches(r, { ...none, search: 'echo' })).toBe(true);
    expect(matches(r, { ...none, search: 'nope' })).toBe(false);
  });
  it('merges snapshots and live frames by seq without duplicates', () => {
    const f1 = frame('a', 'outbound', '{}');
    const f2 = frame('a', 'inbound', '{}');
    const f3 = frame('b', 'inbound', '{}');
    expect(mergeBySeq([f3, f1], [f2, f3]).map((f) => f.seq)).toEqual([f1.seq, f2.seq, f3.seq]);
  });
});

describe('frames of one call', () => {
  it('finds a tools/call by tool and arguments and keeps only its frames', () => {
    const ix = new FrameIndex();
    ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":"p1"}}}'));
    ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"b":3,"a":1},"_meta":{"progressToken":"p2"}}}'));
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p2","progress":1}}'));
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}'));
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","id":1,"result":{}}'));
    ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}'));
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","id":2,"result":{}}'));
    ix.add(frame('t', 'inbound', '{"jsonrpc":"2.0","id":2,"result":{}}'));
    const call = findToolCall(ix.rows, 's', 'add', { a: 1, b: 3 });
    expect(call).toMatchObject({ server: 's', id: '2', progressToken: '"p2"' });
    const shown = ix.rows.filter((r) => matches(r, { server: '', direction: '', method: '', search: '', call }));
    expect(shown.map((r) => r.frame.seq - ix.rows[0].frame.seq)).toEqual([1, 2, 5, 6]);
    expect(findToolCall(ix.rows, 's', 'add', { a: 9 })).toBeNull();
  });
  it('finds a call by the requests it sent, not a same-id request of another connection nor a same-arguments call', () => {
    const ix = new FrameIndex();
    const call = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}';
    ix.add(frame('s', 'outbound', call, 1_000)); // an earlier connection's id 3
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","id":3,"result":{}}', 1_010));
    ix.add(frame('s', 'outbound', call, 60_000)); // ours, after a reconnect
    ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"t"}}', 60_100));
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","id":4,"result":{}}', 60_150));
    ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","id":3,"result":{}}', 60_200));
    ix.add(frame('s', 'outbound', call.replace('"id":3', '"id":5'), 90_000)); // same arguments, later
    const ref = findCallByRequests(ix.rows, 's', 'add', [{ id: 3, atMs: 60_001 }, { id: 4, atMs: 60_100 }]);
    expect(ref).toMatchObject({ id: '3', moreIds: ['4'], label: 'add #3' });
    const shown = ix.rows.filter((r) => matches(r, { server: '', direction: '', method: '', search: '', call: ref }));
    expect(shown.map((r) => r.frame.tsMs)).toEqual([60_000, 60_100, 60_150, 60_200]);
    expect(findCallByRequests(ix.rows, 's', 'add', [{ id: 9, atMs: 60_000 }])).toBeNull();
  });
  it('links a request and its response both ways', () => {
    const ix = new FrameIndex();
    const req = ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","id":7,"method":"ping"}'));
    const res = ix.add(frame('s', 'inbound', '{"jsonrpc":"2.0","id":7,"result":{}}'));
    expect(req.pair).toBe(res);
    expect(res.pair).toBe(req);
  });
});

describe('cancellation', () => {
  it('links a cancelled request and its notifications/cancelled', () => {
    const ix = new FrameIndex();
    const req = ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow"}}'));
    const cancel = ix.add(frame('s', 'outbound', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}'));
    expect(req.cancelledBy).toBe(cancel);
    expect(cancel.pair).toBe(req);
    expect(req.latencyMs).toBeUndefined();
  });
});

describe('HTTP exchanges', () => {
  it('groups the frame a request posted and the frames its response carried', () => {
    const ix = new FrameIndex();
    const post = ix.add(frame('h', 'outbound', '{"jsonrpc":"2.0","id":1,"method":"tools/call"}'));
    const other = ix.add(frame('h', 'outbound', '{"jsonrpc":"2.0","id":2,"method":"ping"}'));
    const http = { method: 'POST', url: 'http://127.0.0.1:1/mcp', purpose: 'post', status: 200, requestHeaders: [], responseHeaders: [], startedMs: 1, elapsedMs: 2, requestSeq: post.frame.seq };
    const ex = ix.add({ ...frame('h', 'inbound', 'POST … → HTTP 200 (2 ms)', 1000, 'note'), http } as TrafficFrame);
    const progress = ix.add({ ...frame('h', 'inbound', '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}'), exchange: ex.frame.seq } as TrafficFrame);
    const answer = ix.add({ ...frame('h', 'inbound', '{"jsonrpc":"2.0","id":1,"result":{}}'), exchange: ex.frame.seq } as TrafficFrame);
    expect(ex.members).toEqual([post, progress, answer]);
    expect([post, progress, answer, ex].every((r) => r.http === ex)).toBe(true);
    expect(other.http).toBeUndefined();
    const only = ix.rows.filter((r) => matches(r, { server: '', direction: '', method: '', search: '', exchange: ex.frame.seq }));
    expect(only).toEqual([post, ex, progress, answer]);
  });
});
