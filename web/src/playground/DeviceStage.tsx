// The emulated device on the playground's stage. The screen is exactly the emulated W×H (the
// app frame inside gets that width, so the app's viewport is what the device says); the bezel
// is drawn outside it. A device larger than the stage is scaled down to fit, or to a chosen
// zoom, with a CSS transform on a wrapper: the app still lays out at its emulated size. The
// device carries no `dir` or `lang`: the app gets the locale through its host context, and
// host dialogs stay in the host's language and direction.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { HostConditions } from '../apps/host';
import { BEZEL, fitScale, scaleOf, type Zoom } from './zoom';

export interface DeviceStageProps {
  width: number;
  height: number;
  theme: HostConditions['theme'];
  safeArea: HostConditions['safeArea'];
  zoom: Zoom;
  /** The scale "fit" means on this stage now (for the zoom control's label). */
  onFit: (scale: number) => void;
  children: ReactNode;
}

/** The stage's inner size (padding excluded), followed as the window and panels change. */
function useStageSize(ref: React.RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      // Hidden (the playground kept alive behind another page): keep the last size.
      if (el.clientWidth === 0 && el.clientHeight === 0) return;
      const cs = getComputedStyle(el);
      const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
      const padY = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
      setSize({ width: el.clientWidth - padX, height: el.clientHeight - padY });
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

export function DeviceStage({ width, height, theme, safeArea, zoom, onFit, children }: DeviceStageProps) {
  const stage = useRef<HTMLDivElement>(null);
  const size = useStageSize(stage);
  const fit = fitScale(size, width, height);
  useEffect(() => onFit(fit), [fit, onFit]);
  const scale = scaleOf(zoom, fit);
  const outerW = width + 2 * BEZEL;
  const outerH = height + 2 * BEZEL;
  return (
    <div className="pg-stage" ref={stage} tabIndex={0} aria-label="Emulated device" data-testid="pg-stage">
      <div className="pg-zoom-box" style={{ width: outerW * scale, height: outerH * scale }} data-testid="pg-zoom-box" data-scale={scale}>
        <div className={`device device-${theme}`} data-testid="pg-device" style={{ padding: BEZEL, transform: scale === 1 ? undefined : `scale(${scale})`, ['--pg-scale' as string]: scale }}>
          <div className="device-screen" data-testid="pg-screen" style={{ width, height, colorScheme: theme }}>
            {children}
            <SafeAreaOverlay insets={safeArea} />
          </div>
        </div>
      </div>
    </div>
  );
}

function SafeAreaOverlay({ insets }: { insets: HostConditions['safeArea'] }) {
  const parts = (['top', 'right', 'bottom', 'left'] as const).filter((k) => insets[k] > 0);
  return (
    <>
      {parts.map((k) => (
        <div
          key={k}
          className={`safe-area safe-area-${k}`}
          style={{ [k === 'top' || k === 'bottom' ? 'height' : 'width']: insets[k] }}
          data-testid={`pg-safe-area-${k}`}
          title={`safe area ${k}: ${insets[k]} px`}
        />
      ))}
    </>
  );
}
