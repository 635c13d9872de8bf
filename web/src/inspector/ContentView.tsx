// Renders MCP content as a person wants to see it: text as markdown, images and audio as
// media (only from data: URLs built here, with image/* and audio/* types), resource links,
// embedded resources, and anything unknown as a JSON tree.
import { useState } from 'react';
import type { ContentBlock } from '../api/client';
import { JsonTree } from '../ui/JsonTree';
import { Markdown } from '../ui/Markdown';

export function ContentView({ content }: { content: unknown }) {
  const blocks: unknown[] = Array.isArray(content) ? content : content === undefined ? [] : [content];
  if (blocks.length === 0) return <div className="muted small">(no content)</div>;
  return (
    <div className="content-blocks">
      {blocks.map((b, i) => (
        <Block key={i} block={b as ContentBlock} />
      ))}
    </div>
  );
}

function mediaType(mime: unknown, prefix: string): string | null {
  return typeof mime === 'string' && mime.toLowerCase().startsWith(prefix) && /^[\w.+-]+\/[\w.+-]+$/.test(mime) ? mime : null;
}

export function base64Size(b64: string): number {
  const clean = b64.replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

function Block({ block }: { block: ContentBlock }) {
  if (!block || typeof block !== 'object') return <JsonTree value={block} />;
  switch (block.type) {
    case 'text':
      return <TextBlock text={String(block.text ?? '')} />;
    case 'image': {
      const mime = mediaType(block.mimeType, 'image/');
      return mime ? (
        <figure className="block block-image">
          <img src={`data:${mime};base64,${block.data}`} alt="image from the server" data-testid="result-image" />
          <figcaption className="small muted">{mime} · {base64Size(String(block.data ?? ''))} bytes</figcaption>
        </figure>
      ) : (
        <Unknown block={block} note={`image with unsupported type ${String(block.mimeType)}`} />
      );
    }
    case 'audio': {
      const mime = mediaType(block.mimeType, 'audio/');
      return mime ? (
        <div className="block block-audio">
          <audio controls src={`data:${mime};base64,${block.data}`} data-testid="result-audio" />
          <div className="small muted">{mime} · {base64Size(String(block.data ?? ''))} bytes</div>
        </div>
      ) : (
        <Unknown block={block} note={`audio with unsupported type ${String(block.mimeType)}`} />
      );
    }
    case 'resource_link':
      return (
        <div className="block block-link" data-testid="result-resource-link">
          <span className="badge">resource link</span> <code>{String(block.uri)}</code>
          {block.name && <span className="muted"> · {String(block.title ?? block.name)}</span>}
          {block.mimeType && <span className="muted"> · {String(block.mimeType)}</span>}
          {block.description && <div className="small muted">{String(block.description)}</div>}
        </div>
      );
    case 'resource':
      return (
        <div className="block block-embedded" data-testid="result-embedded-resource">
          <span className="badge">embedded resource</span>
          <ResourceContentsView contents={[block.resource]} />
        </div>
      );
    default:
      return <Unknown block={block} />;
  }
}

function TextBlock({ text }: { text: string }) {
  const [raw, setRaw] = useState(false);
  const json = parseJson(text);
  return (
    <div className="block block-text">
      <div className="block-tools">
        <button type="button" className="linkish small" onClick={() => setRaw(!raw)} aria-pressed={raw}>
          {raw ? (json !== undefined ? 'tree' : 'rendered') : 'raw'}
        </button>
      </div>
      {raw ? <pre className="wrap">{text}</pre> : json !== undefined ? <JsonTree value={json} /> : <Markdown text={text} />}
    </div>
  );
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function Unknown({ block, note }: { block: unknown; note?: string }) {
  return (
    <div className="block">
      {note && <div className="small muted">{note}</div>}
      <JsonTree value={block} />
    </div>
  );
}

/** `resources/read` contents (text or blob), also used for embedded resources. */
export function ResourceContentsView({ contents }: { contents: unknown[] }) {
  return (
    <div className="resource-contents">
      {contents.map((c, i) => {
        const r = (c ?? {}) as Record<string, any>;
        const mime = typeof r.mimeType === 'string' ? r.mimeType : '';
        return (
          <div key={i} className="resource-part">
            <div className="small muted mono">
              {String(r.uri ?? '')} {mime && `· ${mime}`}
            </div>
            {typeof r.text === 'string' ? (
              <ResourceText text={r.text} mime={mime} />
            ) : typeof r.blob === 'string' ? (
              <Blob uri={String(r.uri ?? 'resource')} mime={mime} data={r.blob} />
            ) : (
              <JsonTree value={r} />
            )}
          </div>
        );
      })}
    </div>
  );
}

function ResourceText({ text, mime }: { text: string; mime: string }) {
  const json = mime.includes('json') || mime === '' ? parseJson(text) : undefined;
  if (json !== undefined) return <JsonTree value={json} expandDepth={3} />;
  if (mime === 'text/markdown') return <Markdown text={text} />;
  return <pre className="wrap">{text}</pre>;
}

function Blob({ uri, mime, data }: { uri: string; mime: string; data: string }) {
  const image = mediaType(mime, 'image/');
  const audio = mediaType(mime, 'audio/');
  const size = base64Size(data);
  const name = uri.split(/[/:]/).filter(Boolean).pop() || 'resource';
  return (
    <div className="block">
      {image && <img src={`data:${image};base64,${data}`} alt={uri} data-testid="resource-image" />}
      {audio && <audio controls src={`data:${audio};base64,${data}`} />}
      <div className="small">
        binary · {size.toLocaleString()} bytes ·{' '}
        <a href={`data:application/octet-stream;base64,${data}`} download={name} data-testid="resource-download">
          download
        </a>
      </div>
    </div>
  );
}
