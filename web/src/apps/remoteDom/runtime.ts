// The Remote DOM runtime that runs on the sandbox origin, never in mcplab's page: the MCP-UI
// proxy page puts this bundle into an opaque-origin inner frame (`sandbox="allow-scripts"`,
// under the proxy's CSP) and relays its messages to the host. It exports `render` over a
// @quilted/threads channel to its parent: define the remote elements the host allows, mirror
// `#root` to the host's receiver with @remote-dom/core's `RemoteMutationObserver`, then run the
// resource's script with `root` and `console` bound. The script runs as an inline script
// element (what the sandbox's `script-src 'unsafe-inline'` allows), not through `eval`.
// Built as its own chunk (`?worker&url`); must not import anything of mcplab's page.
import { ThreadNestedIframe } from '@quilted/threads';
import { RemoteElement, RemoteMutationObserver } from '@remote-dom/core/elements';
import type { RemoteConnection } from '@remote-dom/core';

interface ElementDefinition {
  tagName: string;
  remoteAttributes?: string[];
  remoteEvents?: string[];
}

interface RenderOptions {
  code: string;
  remoteElements?: ElementDefinition[];
}

const VALID_TAG = /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/;

function define(def: ElementDefinition): void {
  if (!VALID_TAG.test(def.tagName) || customElements.get(def.tagName)) return;
  const attributes = (def.remoteAttributes ?? []).filter((a) => typeof a === 'string');
  const events = (def.remoteEvents ?? []).filter((e) => typeof e === 'string');
  customElements.define(
    def.tagName,
    class extends RemoteElement {
      static get remoteAttributes() {
        return attributes;
      }
      static get remoteEvents() {
        return events;
      }
    },
  );
}

function report(message: string): void {
  window.parent.postMessage({ type: 'mcplab-remote-dom-error', payload: { message: message.slice(0, 2000) } }, '*');
}

window.addEventListener('error', (e) => report(String(e.message)));

new ThreadNestedIframe({
  exports: {
    async render(options: RenderOptions, connection: RemoteConnection) {
      (options.remoteElements ?? []).forEach(define);
      const root = document.getElementById('root');
      if (!root) throw new Error('the runtime document has no #root');
      new RemoteMutationObserver(connection).observe(root);
      const script = document.createElement('script');
      script.textContent = `(function (root, console) {\n${options.code}\n})(document.getElementById('root'), console);`;
      document.body.appendChild(script);
    },
  },
});
