// The host side of the MCP-UI basic component library (`ui-text`, `ui-button`, `ui-stack`,
// `ui-image`) as custom elements in mcplab's page, for @remote-dom/core's DOMRemoteReceiver to
// mirror a Remote DOM resource into. Each draws inside its own shadow root from its
// attributes only; `ui-button` fires `press` (what the basic library's onPress forwards).
// `POLICY` is the receiver's allowlist: these four names with exactly these attributes and
// events, no properties and no methods. Nothing here runs the resource's code.
import type { DOMRemoteElementPolicy } from '@remote-dom/core/receivers';

export const POLICY: Record<string, DOMRemoteElementPolicy> = {
  'ui-text': { attributes: ['content'], properties: {}, events: {}, methods: [] },
  'ui-button': { attributes: ['label'], properties: {}, events: { press: {}, click: {} }, methods: [] },
  'ui-stack': { attributes: ['direction', 'spacing', 'align', 'justify'], properties: {}, events: {}, methods: [] },
  'ui-image': { attributes: ['src', 'alt', 'width', 'height'], properties: {}, events: {}, methods: [] },
};

abstract class Base extends HTMLElement {
  protected readonly shadow = this.attachShadow({ mode: 'open' });
  connectedCallback() {
    this.draw();
  }
  attributeChangedCallback() {
    this.draw();
  }
  protected abstract draw(): void;
}

class UiText extends Base {
  static observedAttributes = ['content'];
  protected draw() {
    this.shadow.replaceChildren(Object.assign(document.createElement('span'), { textContent: this.getAttribute('content') ?? '' }), document.createElement('slot'));
  }
}

class UiButton extends Base {
  static observedAttributes = ['label'];
  protected draw() {
    const b = document.createElement('button');
    b.type = 'button';
    b.part.add('button');
    b.textContent = this.getAttribute('label') ?? '';
    b.style.cssText = 'font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--accent, #3563e9); background: var(--accent, #3563e9); color: var(--accent-fg, #fff); cursor: pointer;';
    b.addEventListener('click', () => this.dispatchEvent(new Event('press')));
    this.shadow.replaceChildren(b, document.createElement('slot'));
  }
}

const FLEX: Record<string, string> = { start: 'flex-start', end: 'flex-end', center: 'center', stretch: 'stretch', 'space-between': 'space-between' };

class UiStack extends Base {
  static observedAttributes = ['direction', 'spacing', 'align', 'justify'];
  protected draw() {
    const gap = Number(this.getAttribute('spacing') ?? 8);
    const style = document.createElement('style');
    style.textContent = `:host { display: flex; flex-direction: ${this.getAttribute('direction') === 'horizontal' ? 'row' : 'column'}; gap: ${Number.isFinite(gap) ? gap : 8}px; align-items: ${FLEX[this.getAttribute('align') ?? ''] ?? 'stretch'}; justify-content: ${FLEX[this.getAttribute('justify') ?? ''] ?? 'flex-start'}; }`;
    this.shadow.replaceChildren(style, document.createElement('slot'));
  }
}

class UiImage extends Base {
  static observedAttributes = ['src', 'alt', 'width', 'height'];
  protected draw() {
    const img = document.createElement('img');
    const src = this.getAttribute('src') ?? '';
    // Only web and data images; the host page's CSP decides what actually loads.
    if (/^(https?:|data:image\/)/i.test(src)) img.src = src;
    img.alt = this.getAttribute('alt') ?? '';
    for (const k of ['width', 'height'] as const) {
      const v = Number(this.getAttribute(k));
      if (Number.isFinite(v) && v > 0) img[k] = v;
    }
    this.shadow.replaceChildren(img);
  }
}

/** Defines the four elements in this document once. */
export function defineBasicElements(registry: CustomElementRegistry = customElements): void {
  const all: [string, CustomElementConstructor][] = [
    ['ui-text', UiText],
    ['ui-button', UiButton],
    ['ui-stack', UiStack],
    ['ui-image', UiImage],
  ];
  for (const [name, ctor] of all) if (!registry.get(name)) registry.define(name, ctor);
}
