// Dev helper: a tiny scripted OpenAI-compatible chat completions server (streaming only) for
// trying the chat UI without a real model: node scripts/fake-openai.mjs [port=7411], then
// start mcplab with OPENAI_API_KEY=x OPENAI_BASE_URL=http://127.0.0.1:<port>/v1/.
// The last user message decides: "use <tool> {json}" → a tool call (the model-facing name is
// found among the offered tools by suffix), "fail now" → HTTP 500, "loop use …" → a tool call
// every step (hits the step limit), "slow" / "glacial" → stream slowly; after a tool result →
// a Markdown answer quoting it; anything else → a short Markdown answer with reasoning.
import http from 'node:http';

const port = Number(process.argv[2] || 7411);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function chunk(res, delta, finish = null, usage) {
  const body = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'fake-1', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }] };
  if (usage) body.usage = usage;
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

http
  .createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    if (req.url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ data: [{ id: 'fake-1' }] }));
    }
    const body = JSON.parse(raw || '{}');
    const msgs = body.messages || [];
    const last = msgs[msgs.length - 1] || {};
    const lastUser = [...msgs].reverse().find((m) => m.role === 'user');
    const userText = typeof lastUser?.content === 'string' ? lastUser.content : JSON.stringify(lastUser?.content ?? '');
    const tools = (body.tools || []).map((t) => t.function.name);
    console.log('request', last.role, JSON.stringify(userText).slice(0, 80), 'tools', tools.length);
    if (/^fail now/.test(userText) && last.role === 'user') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'scripted upstream failure', type: 'server_error' } }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const usage = { prompt_tokens: 120 + msgs.length * 10, completion_tokens: 42, total_tokens: 170 };
    const m = /use (\w+)\s*(\{.*\})?/.exec(userText);
    const wantsTool = m && (last.role === 'user' || /\bloop\b/.test(userText));
    if (wantsTool) {
      const name = tools.find((t) => t === m[1] || t.endsWith(`__${m[1]}`)) || m[1];
      const args = m[2] || '{}';
      chunk(res, { role: 'assistant', content: `Let me call \`${m[1]}\`.` });
      chunk(res, { tool_calls: [{ index: 0, id: `call_${Date.now()}`, type: 'function', function: { name, arguments: '' } }] });
      for (let i = 0; i < args.length; i += 8) chunk(res, { tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 8) } }] });
      chunk(res, {}, 'tool_calls');
      chunk(res, {}, null, usage);
      res.write('data: [DONE]\n\n');
      return res.end();
    }
    const toolMsg = last.role === 'tool' ? String(typeof last.content === 'string' ? last.content : JSON.stringify(last.content)) : null;
    const text = toolMsg
      ? `The tool answered:\n\n> ${toolMsg.slice(0, 200).replace(/\n/g, ' ')}\n\nHere is some **Markdown** with code:\n\n\`\`\`rust\nfn main() {\n    let x = 42; // answer\n    println!("{x}");\n}\n\`\`\`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`
      : `Hello! You said: *${userText.slice(0, 80)}*.\n\n- point one\n- point two with \`inline code\`\n\n\`\`\`json\n{"ok": true, "n": 3}\n\`\`\`\n`;
    chunk(res, { role: 'assistant', reasoning_content: 'Thinking about the answer…' });
    const slow = /\bslow\b/.test(userText) ? 150 : /glacial/.test(userText) ? 500 : 0;
    for (let i = 0; i < text.length; i += 6) {
      chunk(res, { content: text.slice(i, i + 6) });
      await sleep(slow || 8);
      if (res.destroyed) return;
    }
    chunk(res, {}, 'stop');
    chunk(res, {}, null, usage);
    res.write('data: [DONE]\n\n');
    res.end();
  })
  .listen(port, '127.0.0.1', () => console.log('fake openai on', port));
