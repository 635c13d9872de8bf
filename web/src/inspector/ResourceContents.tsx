// `resources/read` contents (text or blob), also used for embedded resources. Blobs are shown
// by their MIME type: text types decoded as text, images with zoom, audio with a player, the
// rest as a download. Markdown links relative to the resource resolve against its URI.
import { Download } from 'lucide-react';
import { JsonTree } from '../ui/JsonTree';
import { Markdown } from '../ui/Markdown';
import { Annotations } from './Annotations';
import { ImageView } from './ImageView';
import { base64Size, decodeBase64Text, isTextMime, mediaType, parseJson } from './mime';

export function ResourceContentsView({ contents, onOpenResource }: { contents: unknown[]; onOpenResource?: (uri: string) => void }) {
  return (
    <div className="resource-contents">
      {contents.map((c, i) => {
        const r = (c ?? {}) as Record<string, unknown>;
        const mime = typeof r.mimeType === 'string' ? r.mimeType : '';
        const uri = String(r.uri ?? '');
        return (
          <div key={i} className="resource-part" data-testid="resource-part">
            <div className="small muted mono wrap-any">
              {uri} {mime && `· ${mime}`} <Annotations value={r.annotations} />
            </div>
            {typeof r.text === 'string' ? (
              <ResourceText text={r.text} mime={mime} uri={uri} onOpenResource={onOpenResource} />
            ) : typeof r.blob === 'string' ? (
              <Blob uri={uri || 'resource'} mime={mime} data={r.blob} onOpenResource={onOpenResource} />
            ) : (
              <JsonTree value={r} />
            )}
          </div>
        );
      })}
    </div>
  );
}

function ResourceText({ text, mime, uri, onOpenResource }: { text: string; mime: string; uri: string; onOpenResource?: (uri: string) => void }) {
  const json = mime.includes('json') || mime === '' ? parseJson(text) : undefined;
  if (json !== undefined) return <JsonTree value={json} expandDepth={Infinity} />;
  if (mime.split(';')[0].trim() === 'text/markdown') return <Markdown text={text} baseUri={uri} onOpenResource={onOpenResource} />;
  return <pre className="wrap">{text}</pre>;
}

function Blob({ uri, mime, data, onOpenResource }: { uri: string; mime: string; data: string; onOpenResource?: (uri: string) => void }) {
  const image = mediaType(mime, 'image/');
  const audio = mediaType(mime, 'audio/');
  const text = !image && !audio && isTextMime(mime) ? decodeBase64Text(data) : null;
  const size = base64Size(data);
  const name = uri.split(/[/:]/).filter(Boolean).pop() || 'resource';
  return (
    <div className="blob" data-testid="resource-blob" data-shown={image ? 'image' : audio ? 'audio' : text !== null ? 'text' : 'binary'}>
      {image && <ImageView src={`data:${image};base64,${data}`} alt={uri} testId="resource-image" />}
      {audio && <audio controls src={`data:${audio};base64,${data}`} />}
      {text !== null && <ResourceText text={text} mime={mime} uri={uri} onOpenResource={onOpenResource} />}
      <div className="small muted">
        blob · {size.toLocaleString()} bytes ·{' '}
        <a href={`data:application/octet-stream;base64,${data}`} download={name} data-testid="resource-download">
          <Download size={12} aria-hidden="true" /> download
        </a>
      </div>
    </div>
  );
}
