// Owns the `window.openai` compatibility shim (OpenAI Apps SDK → MCP Apps JSON-RPC). The shim is
// generated as a self-contained ES2019 IIFE string, inserted as the first <script> of an app
// document that runs in the sandbox's inner iframe (its `window.parent` is the relay proxy).
// It maps the Apps SDK globals/methods onto `ui/*` messages; see ui-protocols.md §1.5–1.6, §2.
// The runtime code only refers to `window` as a free variable, so tests can evaluate it with
// `new Function("window", src)(fakeWindow)`.

export type ShimTheme = 'light' | 'dark';
export type ShimDisplayMode = 'inline' | 'fullscreen' | 'pip';

export interface ShimGlobals {
  theme: ShimTheme;
  locale: string;
  displayMode: ShimDisplayMode;
  maxHeight: number | null;
  safeArea: { insets: { top: number; right: number; bottom: number; left: number } };
  userAgent: {
    device: { type: 'mobile' | 'tablet' | 'desktop' | 'unknown' };
    capabilities: { hover: boolean; touch: boolean };
  };
}

export interface ShimInit {
  toolInput?: object | null;
  toolOutput?: object | null;
  toolResponseMetadata?: object | null;
  widgetState?: unknown;
  /** true for OpenAI widgets (the shim does the MCP Apps handshake); false for MCP Apps. */
  performHandshake: boolean;
  globals?: Partial<ShimGlobals>;
}

/** JSON for embedding inside a <script> element: no `<`, `>`, `&`, U+2028/U+2029 survive raw. */
export function serializeForScript(value: unknown): string {
  const json = JSON.stringify(value === undefined ? null : value);
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Source of the IIFE defining `window.openai` (and `window.webplus`). */
export function openaiShimSource(init: ShimInit): string {
  const data = {
    toolInput: init.toolInput,
    toolOutput: init.toolOutput,
    toolResponseMetadata: init.toolResponseMetadata,
    widgetState: init.widgetState,
    performHandshake: !!init.performHandshake,
    globals: init.globals ?? {},
  };
  return '(function () {\n"use strict";\nvar INIT = ' + serializeForScript(data) + ';\n' + SHIM_BODY + '\n})();\n';
}

// Runtime body (ES2019: no `?.`, no `??`). Keep free of backslashes, "${" and "</script".
const SHIM_BODY = String.raw`
if (!window || window.openai) return;
var parent = window.parent;
var PREFIX = "openai-shim-";
var TIMEOUT_MS = 30000;
var HANDSHAKE = INIT.performHandshake === true;
var seq = 0;
var pending = {};
var queue = HANDSHAKE ? [] : null;
var hostCtx = {};
var autoResize = HANDSHAKE;
var lastSize = null;
function has(o, k) { return o != null && Object.prototype.hasOwnProperty.call(o, k); }
function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
function orNull(v) { return v === undefined ? null : v; }
function same(a, b) { try { return JSON.stringify(a) === JSON.stringify(b); } catch (e) { return a === b; } }
var G = INIT.globals || {};
var api = {
  toolInput: INIT.toolInput === undefined ? {} : INIT.toolInput,
  toolOutput: orNull(INIT.toolOutput),
  toolResponseMetadata: orNull(INIT.toolResponseMetadata),
  widgetState: orNull(INIT.widgetState),
  theme: G.theme || "light",
  locale: G.locale || "en-US",
  displayMode: G.displayMode || "inline",
  maxHeight: typeof G.maxHeight === "number" ? G.maxHeight : null,
  safeArea: G.safeArea || { insets: { top: 0, right: 0, bottom: 0, left: 0 } },
  userAgent: G.userAgent || { device: { type: "unknown" }, capabilities: { hover: true, touch: false } },
  view: { mode: "inline", params: null }
};
function fire(type, detail) {
  try { window.dispatchEvent(new window.CustomEvent(type, { detail: detail })); } catch (e) { /* ignore */ }
}
function setGlobals(patch) {
  var changed = {}, any = false;
  for (var k in patch) {
    if (!has(patch, k) || same(api[k], patch[k])) continue;
    api[k] = patch[k]; changed[k] = patch[k]; any = true;
  }
  if (any) fire("openai:set_globals", { globals: changed });
}
function post(msg) { parent.postMessage(msg, "*"); }
function send(msg) { if (queue) queue.push(msg); else post(msg); }
function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params || {} }); }
function request(method, params, direct) {
  return new Promise(function (resolve, reject) {
    var id = PREFIX + (++seq);
    var timer = setTimeout(function () {
      delete pending[id];
      reject(new Error(method + " timed out after " + TIMEOUT_MS / 1000 + " s"));
    }, TIMEOUT_MS);
    pending[id] = { resolve: resolve, reject: reject, timer: timer };
    var msg = { jsonrpc: "2.0", id: id, method: method, params: params || {} };
    if (direct) post(msg); else send(msg);
  });
}
function deviceType(ctx) {
  var t = ctx.deviceType;
  if (t === "mobile" || t === "tablet" || t === "desktop" || t === "unknown") return t;
  if (ctx.platform === "mobile") return "mobile";
  if (ctx.platform === "desktop" || ctx.platform === "web") return "desktop";
  return "unknown";
}
function applyHostContext(partial) {
  if (!isObj(partial)) return;
  for (var k in partial) if (has(partial, k)) hostCtx[k] = partial[k];
  var c = hostCtx, patch = {};
  if (c.theme === "light" || c.theme === "dark") patch.theme = c.theme;
  if (typeof c.locale === "string") patch.locale = c.locale;
  if (c.displayMode === "inline" || c.displayMode === "fullscreen" || c.displayMode === "pip") patch.displayMode = c.displayMode;
  var dims = c.containerDimensions;
  if (isObj(dims)) {
    if (typeof dims.maxHeight === "number") patch.maxHeight = dims.maxHeight;
    else if (typeof dims.height === "number") patch.maxHeight = dims.height;
  }
  var ins = c.safeAreaInsets;
  if (isObj(ins)) {
    patch.safeArea = { insets: { top: +ins.top || 0, right: +ins.right || 0, bottom: +ins.bottom || 0, left: +ins.left || 0 } };
  }
  if (isObj(c.deviceCapabilities) || has(c, "deviceType") || has(c, "platform")) {
    var caps = isObj(c.deviceCapabilities) ? c.deviceCapabilities : api.userAgent.capabilities;
    var type = has(c, "deviceType") || has(c, "platform") ? deviceType(c) : api.userAgent.device.type;
    patch.userAgent = { device: { type: type }, capabilities: { hover: !!caps.hover, touch: !!caps.touch } };
  }
  setGlobals(patch);
}
function reply(id, result, error) {
  var m = { jsonrpc: "2.0", id: id };
  if (error) m.error = error; else m.result = result;
  post(m);
}
function onMessage(ev) {
  if (ev.source !== parent) return;
  var m = ev.data;
  if (!isObj(m) || m.jsonrpc !== "2.0") return;
  var p = isObj(m.params) ? m.params : {};
  if (typeof m.method === "string") {
    if (has(m, "id")) {
      if (!HANDSHAKE) return;
      if (m.method === "ping" || m.method === "ui/resource-teardown") reply(m.id, {});
      else reply(m.id, null, { code: -32601, message: "Method not found: " + m.method });
      return;
    }
    if (m.method === "ui/notifications/tool-input" || m.method === "ui/notifications/tool-input-partial") {
      setGlobals({ toolInput: isObj(p.arguments) ? p.arguments : {} });
    } else if (m.method === "ui/notifications/tool-result") {
      setGlobals({ toolOutput: orNull(p.structuredContent), toolResponseMetadata: orNull(p._meta) });
    } else if (m.method === "ui/notifications/host-context-changed") {
      applyHostContext(p);
    }
    return;
  }
  if (typeof m.id !== "string" || m.id.indexOf(PREFIX) !== 0 || !has(pending, m.id)) return;
  var entry = pending[m.id];
  delete pending[m.id];
  clearTimeout(entry.timer);
  if (isObj(m.error)) {
    var err = new Error(typeof m.error.message === "string" ? m.error.message : "JSON-RPC error");
    err.code = m.error.code; err.data = m.error.data;
    entry.reject(err);
  } else entry.resolve(m.result);
}
window.addEventListener("message", onMessage);
function measure() {
  var d = window.document, el = d && d.documentElement;
  if (!el) return;
  var prev = el.style.height;
  el.style.height = "max-content";
  var h = Math.ceil(el.getBoundingClientRect().height);
  el.style.height = prev;
  if (lastSize === h) return;
  lastSize = h;
  notify("ui/notifications/size-changed", { height: h });
}
function startAutoResize() {
  var d = window.document;
  if (!autoResize || typeof window.ResizeObserver !== "function" || !d || !d.documentElement) return;
  var scheduled = false;
  var ro = new window.ResizeObserver(function () {
    if (scheduled || !autoResize) return;
    scheduled = true;
    window.requestAnimationFrame(function () { scheduled = false; if (autoResize) measure(); });
  });
  ro.observe(d.documentElement);
  if (d.body) ro.observe(d.body);
  else d.addEventListener("DOMContentLoaded", function () { if (d.body) ro.observe(d.body); });
}
function flush() {
  var q = queue || [];
  queue = null;
  for (var i = 0; i < q.length; i++) post(q[i]);
}
if (HANDSHAKE) {
  request("ui/initialize", {
    appInfo: { name: "openai-apps-sdk-shim", version: "1" },
    appCapabilities: { availableDisplayModes: ["inline", "fullscreen", "pip"] },
    protocolVersion: "2026-01-26"
  }, true).then(function (res) {
    if (isObj(res) && isObj(res.hostContext)) applyHostContext(res.hostContext);
  }, function () { /* host refused or timed out: carry on without host context */ }).then(function () {
    post({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
    flush();
    startAutoResize();
  });
}
var openai = api;
openai.callTool = function (name, args) {
  var a = args == null ? {} : args;
  return request("tools/call", { name: name, arguments: a }).then(function (result) {
    fire("openai:tool_response", { tool: { name: name, args: a }, result: result });
    return result;
  });
};
openai.sendFollowUpMessage = function (opts) {
  var prompt = typeof opts === "string" ? opts : opts && opts.prompt;
  return request("ui/message", { role: "user", content: [{ type: "text", text: String(prompt == null ? "" : prompt) }] })
    .then(function () { return undefined; });
};
openai.sendFollowupTurn = openai.sendFollowUpMessage;
openai.openExternal = function (opts) {
  var href = typeof opts === "string" ? opts : opts && opts.href;
  return request("ui/open-link", { url: String(href) }).then(function () { return undefined; });
};
openai.requestDisplayMode = function (opts) {
  var mode = typeof opts === "string" ? opts : opts && opts.mode;
  return request("ui/request-display-mode", { mode: mode }).then(function (res) {
    var granted = isObj(res) && typeof res.mode === "string" ? res.mode : mode;
    setGlobals({ displayMode: granted });
    return { mode: granted };
  }, function () { return { mode: api.displayMode }; });
};
openai.notifyIntrinsicHeight = function (height) {
  autoResize = false;
  var h = Number(height);
  if (isFinite(h) && h >= 0) notify("ui/notifications/size-changed", { height: Math.ceil(h) });
};
openai.setWidgetState = function (state) {
  setGlobals({ widgetState: orNull(state) });
  notify("openai/setWidgetState", { state: orNull(state) });
  return Promise.resolve();
};
openai.requestModal = function (opts) {
  notify("openai/requestModal", isObj(opts) ? opts : {});
  return Promise.resolve();
};
openai.requestClose = function () {
  notify("openai/requestClose", {});
  return Promise.resolve();
};
function defineGlobal(key) {
  try { Object.defineProperty(window, key, { value: openai, writable: false, configurable: false, enumerable: true }); } catch (e) { /* already defined */ }
}
defineGlobal("openai");
defineGlobal("webplus");
`;
