// An image from a server (a data: URL built here from an image/* type), with a zoom: click it
// to see it large, at fit, 1×, 2× or 4× (pixel-sharp when enlarged).
import { useState } from 'react';
import { ZoomIn } from 'lucide-react';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';

const ZOOMS = [0, 1, 2, 4] as const;

export function ImageView({ src, alt, testId }: { src: string; alt: string; testId?: string }) {
  const [open, setOpen] = useState(false);
  const [zoom, setZoom] = useState<(typeof ZOOMS)[number]>(0);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  return (
    <>
      <button type="button" className="image-button" onClick={() => setOpen(true)} title="Zoom" data-testid={testId ? `${testId}-zoom` : undefined}>
        <img src={src} alt={alt} data-testid={testId} onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })} className={natural && natural.w < 64 ? 'tiny' : undefined} />
        <span className="image-zoom-hint" aria-hidden="true">
          <ZoomIn size={13} />
        </span>
      </button>
      {open && (
        <Modal wide title={`Image${natural ? ` · ${natural.w}×${natural.h} px` : ''}`} onCancel={() => setOpen(false)} testId="image-zoom">
          <div className="toolbar">
            {ZOOMS.map((z) => (
              <Button key={z} small variant={zoom === z ? 'primary' : 'ghost'} onClick={() => setZoom(z)} aria-pressed={zoom === z}>
                {z === 0 ? 'Fit' : `${z}×`}
              </Button>
            ))}
          </div>
          <div className="image-stage">
            <img
              src={src}
              alt={alt}
              style={zoom === 0 || !natural ? { maxWidth: '100%', width: natural && natural.w < 200 ? '100%' : undefined } : { width: natural.w * zoom, maxWidth: 'none' }}
              className={zoom !== 1 ? 'pixelated' : undefined}
            />
          </div>
        </Modal>
      )}
    </>
  );
}
