// Renders MCP content as a person wants to see it: text as Markdown (or a JSON tree), images
// with zoom and audio (only from data: URLs built here, with image/* and audio/* types),
// resource links that open in the Resources view, embedded resources, anything unknown as a
// JSON tree — each block with its annotations and a copy button.
import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import type { ContentBlock } from '../api/client';
import { CopyButton } from '../ui/CopyButton';
import { JsonTree } from '../ui/JsonTree';
import { Markdown } from '../ui/Markdown';
import { Annotations } from './Annotations';
import { ImageView } from './ImageView';
import { base64Size, mediaType, parseJson } from './mime';
import { ResourceContentsView } from './ResourceContents';

export { ResourceContentsView } from './ResourceContents';

export type OpenResource = (uri: string) => void;

export function ContentView({ content, onOpenResource }: { content: unknown; onOpenResource?: OpenResource }) {
  const blocks: unknown[] = Array.isArray(content) ? content : content === undefined ? [] : [content];
  if (blocks.length === 0) return <div className="muted small">(no content)</div>;
  return (
    <div className="content-blocks">
      {blocks.map((b, i) => (
        <Block key={i} block={b as ContentBlock} onOpenResource={onOpenResource} />
      ))}
    </div>
  );
}

function copyOf(block: ContentBlock): string {
  return block?.type === 'text' ? String(block.text ?? '') : JSON.stringify(block, null, 2);
}

/** The frame around every block: its type, annotations, per-block tools and copy. */
function Frame({ block, tools, className, testId, children }: { block: ContentBlock; tools?: React.ReactNode; className?: string; testId?: string; children: React.ReactNode }) {
  return (
    <div className={`block ${className ?? ''}`} data-testid={testId} data-type={block?.type}>
      <div className="block-head">
        <span className="block-type">{String(block?.type ?? 'value')}</span>
        <Annotations value={block?.annotations} />
        <span className="spacer" />
        {tools}
        <CopyButton text={() => copyOf(block)} testId="block-copy" label="Copy" />
      </div>
      {children}
    </div>
  );
}

function Block({ block, onOpenResource }: { block: ContentBlock; onOpenResource?: OpenResource }) {
  if (!block || typeof block !== 'object') return <JsonTree value={block} />;
  switch (block.type) {
    case 'text':
      return <TextBlock block={block} />;
    case 'image': {
      const mime = mediaType(block.mimeType, 'image/');
      return (
        <Frame block={block} className="block-image">
          {mime ? (
            <figure>
              <ImageView src={`data:${mime};base64,${block.data}`} alt="image from the server" testId="result-image" />
              <figcaption className="small muted">
                {mime} · {base64Size(String(block.data ?? ''))} bytes
              </figcaption>
            </figure>
          ) : (
            <Unknown block={block} note={`image with unsupported type ${String(block.mimeType)}`} />
          )}
        </Frame>
      );
    }
    case 'audio': {
      const mime = mediaType(block.mimeType, 'audio/');
      return (
        <Frame block={block} className="block-audio">
          {mime ? (
            <>
              <audio controls src={`data:${mime};base64,${block.data}`} data-testid="result-audio" />
              <div className="small muted">
                {mime} · {base64Size(String(block.data ?? ''))} bytes
              </div>
            </>
          ) : (
            <Unknown block={block} note={`audio with unsupported type ${String(block.mimeType)}`} />
          )}
        </Frame>
      );
    }
    case 'resource_link':
      return (
        <Frame block={block} className="block-link" testId="result-resource-link">
          <div className="link-row">
            {onOpenResource ? (
              <button type="button" className="linkish mono wrap-any" onClick={() => onOpenResource(String(block.uri))} data-testid="resource-link-open" title="Open in the Resources view">
                {String(block.uri)} <ExternalLink size={12} aria-hidden="true" />
              </button>
            ) : (
              <code className="wrap-any">{String(block.uri)}</code>
            )}
            {(block.title || block.name) && <span className="muted"> · {String(block.title ?? block.name)}</span>}
            {block.mimeType && <span className="muted"> · {String(block.mimeType)}</span>}
          </div>
          {block.description && <div className="small muted">{String(block.description)}</div>}
        </Frame>
      );
    case 'resource':
      return (
        <Frame block={block} className="block-embedded" testId="result-embedded-resource">
          <ResourceContentsView contents={[block.resource]} onOpenResource={onOpenResource} />
        </Frame>
      );
    default:
      return (
        <Frame block={block}>
          <Unknown block={block} />
        </Frame>
      );
  }
}

function TextBlock({ block }: { block: Extract<ContentBlock, { type: 'text' }> }) {
  const text = String(block.text ?? '');
  const [raw, setRaw] = useState(false);
  const json = parseJson(text);
  return (
    <Frame
      block={block}
      className="block-text"
      tools={
        <button type="button" className="linkish small" onClick={() => setRaw(!raw)} aria-pressed={raw} data-testid="block-raw">
          {raw ? (json !== undefined ? 'tree' : 'rendered') : 'plain text'}
        </button>
      }
    >
      {raw ? <pre className="wrap">{text}</pre> : json !== undefined ? <JsonTree value={json} expandDepth={Infinity} /> : <Markdown text={text} />}
    </Frame>
  );
}

function Unknown({ block, note }: { block: unknown; note?: string }) {
  return (
    <>
      {note && <div className="small muted">{note}</div>}
      <JsonTree value={block} expandDepth={Infinity} />
    </>
  );
}
