// Markdown from servers and models is untrusted: react-markdown never renders raw HTML (no
// rehype-raw), and web links open in a new tab without an opener. A link relative to the
// document (a resource's `structure.md`) resolves against its URI: to a web page when that is
// http(s), else to the resource, opened in the Resources view by `onOpenResource`. Fenced
// code blocks with a known language are highlighted (highlight.js escapes the text) and get a
// copy button.
import './markdown.css';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './CopyButton';
import { highlight } from './highlight';

const SAFE_URL = /^(https?:|mailto:|#)/i;
const NEVER = /^(javascript|data|vbscript|blob):/i;
const SCHEME = /^[a-z][\w+.-]*:/i;

/**
 * Where a link in the document goes: a web link as is; inside a resource (`baseUri`), another
 * scheme's absolute URI as is and a relative one resolved against the resource; else ''.
 */
export function resolveLink(url: string, baseUri?: string): string {
  if (SAFE_URL.test(url)) return url;
  if (!baseUri) return '';
  if (SCHEME.test(url)) return NEVER.test(url) ? '' : url;
  try {
    const resolved = new URL(url, baseUri).href;
    return NEVER.test(resolved) ? '' : resolved;
  } catch {
    return '';
  }
}

/** Text of a hast node (react-markdown passes the tree node beside the children). */
function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { type?: string; value?: string; children?: unknown[] };
  if (n.type === 'text') return n.value ?? '';
  return (n.children ?? []).map(textOf).join('');
}

function components(onOpenResource?: (uri: string) => void): Components {
  return {
    ...COMPONENTS,
    a: ({ href, children }) => {
      if (!href) return <span className="md-dead-link">{children}</span>;
      if (href.startsWith('#') || /^(https?|mailto):/i.test(href))
        return (
          <a href={href} target={href.startsWith('#') ? undefined : '_blank'} rel="noopener noreferrer">
            {children}
          </a>
        );
      if (!onOpenResource) return <span className="md-dead-link" title={href}>{children}</span>;
      return (
        <a
          href={href}
          title={`Open ${href} in the Resources view`}
          onClick={(e) => {
            e.preventDefault();
            onOpenResource(href);
          }}
          data-testid="md-resource-link"
        >
          {children}
        </a>
      );
    },
  };
}

const COMPONENTS: Components = {
  img: ({ src, alt }) => <span className="md-img">[image: {alt || String(src ?? '')}]</span>,
  pre: ({ node, children }) => (
    <div className="md-pre">
      <pre>{children}</pre>
      <span className="md-pre-tools">
        <CopyButton text={() => textOf(node).replace(/\n$/, '')} />
      </span>
    </div>
  ),
  code: ({ className, children }) => {
    const lang = /(?:^|\s)language-([\w+-]+)/.exec(className ?? '')?.[1]?.toLowerCase();
    const html = lang && typeof children === 'string' ? highlight(children.replace(/\n$/, ''), lang) : null;
    if (html === null) return <code className={className}>{children}</code>;
    return <code className={`hljs ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
  },
};

export function Markdown({ text, testId, baseUri, onOpenResource }: { text: string; testId?: string; baseUri?: string; onOpenResource?: (uri: string) => void }) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} urlTransform={(url) => resolveLink(url, baseUri)} components={components(onOpenResource)}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
