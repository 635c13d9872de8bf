// The emulated locale and time zone inside an app's own document, so the live preview agrees
// with the headless render (where Chromium emulates both for the whole page): a script run
// before the app's own that makes `navigator.language(s)` the host's locale and makes the
// host's locale and time zone the defaults of `Intl` formatters and of `toLocale*String`.
// It follows `ui/initialize`'s and `host-context-changed`'s `locale`/`timeZone`, as the app
// does. Limits: `Date`'s local-time getters (`getHours`, `toString`) keep the machine's zone
// (no script can change them; the headless render can). Plain JavaScript in a string, like
// the other injected scripts: nothing of the bundle may leak into the app's document.

export interface EnvironmentShimOptions {
  locale: string;
  timeZone: string;
}

const SHIM = `(function (state) {
  "use strict";
  var valid = function (v) { return typeof v === "string" && v.length > 0 && v.length < 100; };
  var follow = function (ctx) {
    if (!ctx || typeof ctx !== "object") return;
    if (valid(ctx.locale)) state.locale = ctx.locale;
    if (valid(ctx.timeZone)) state.timeZone = ctx.timeZone;
  };
  var getter = function (obj, prop, get) {
    try { Object.defineProperty(obj, prop, { configurable: true, get: get }); } catch (e) { /* keep the browser's */ }
  };
  getter(Navigator.prototype, "language", function () { return state.locale; });
  getter(Navigator.prototype, "languages", function () { return Object.freeze([state.locale]); });
  var locales = function (l) { return l === undefined ? state.locale : l; };
  var withZone = function (o) {
    if (o !== undefined && o !== null && o.timeZone !== undefined) return o;
    return Object.assign({}, o, { timeZone: state.timeZone });
  };
  ["Collator", "NumberFormat", "PluralRules", "RelativeTimeFormat", "ListFormat", "DisplayNames", "Segmenter", "DateTimeFormat"].forEach(function (name) {
    var Original = Intl[name];
    if (typeof Original !== "function") return;
    var args = function (a) {
      var out = Array.prototype.slice.call(a);
      out[0] = locales(out[0]);
      if (name === "DateTimeFormat") out[1] = withZone(out[1]);
      return out;
    };
    Intl[name] = new Proxy(Original, {
      construct: function (target, a, newTarget) { return Reflect.construct(target, args(a), newTarget); },
      apply: function (target, self, a) { return Reflect.apply(target, self, args(a)); }
    });
  });
  var patch = function (proto, method, zone) {
    var original = proto[method];
    if (typeof original !== "function") return;
    proto[method] = function (l, o) { return original.call(this, locales(l), zone ? withZone(o) : o); };
  };
  ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"].forEach(function (m) { patch(Date.prototype, m, true); });
  patch(Number.prototype, "toLocaleString", false);
  if (typeof BigInt === "function") patch(BigInt.prototype, "toLocaleString", false);
  var compare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (that, l, o) { return compare.call(this, that, locales(l), o); };
  // What the host tells the app, the shim learns too (every listener gets every message).
  window.addEventListener("message", function (e) {
    if (e.source !== window.parent) return;
    var m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method === "ui/notifications/host-context-changed") follow(m.params);
    else if (m.result && typeof m.result === "object") follow(m.result.hostContext);
  });
})`;

/** The shim's source, to inject before any of the app's scripts. */
export function environmentShimSource(opts: EnvironmentShimOptions): string {
  return `${SHIM}(${JSON.stringify({ locale: opts.locale, timeZone: opts.timeZone })});`;
}
