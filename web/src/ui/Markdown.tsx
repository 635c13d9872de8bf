// Markdown from servers and models is untrusted: react-markdown never renders raw HTML (no
// rehype-raw), and links open in a new tab without an opener. Fenced code blocks with a known
// language are highlighted (highlight.js escapes the text) and get a copy button.
import './markdown.css';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './CopyButton';
import { highlight } from './highlight';

const SAFE_URL = /^(https?:|mailto:|#)/i;

/** Text of a hast node (react-markdown passes the tree node beside the children). */
function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { type?: string; value?: string; children?: unknown[] };
  if (n.type === 'text') return n.value ?? '';
  return (n.children ?? []).map(textOf).join('');
}

const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
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

export function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} urlTransform={(url) => (SAFE_URL.test(url) ? url : '')} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
