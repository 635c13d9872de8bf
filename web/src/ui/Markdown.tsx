// Markdown from servers is untrusted: react-markdown never renders raw HTML (no rehype-raw),
// and links open in a new tab without an opener.
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

const SAFE_URL = /^(https?:|mailto:|#)/i;

export function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        urlTransform={(url) => (SAFE_URL.test(url) ? url : '')}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer">
              {children}
            </a>
          ),
          img: ({ src, alt }) => <span className="md-img">[image: {alt || String(src ?? '')}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
