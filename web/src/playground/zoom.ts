// The device stage's zoom: the whole device (screen plus bezel) scaled with a CSS transform on
// a wrapper, so the app inside keeps its emulated size. "Fit" shrinks a device that does not
// fit the stage (never enlarges, never below 25 %); fixed steps go from 50 % to 200 %.

export type Zoom = 'fit' | number;

export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2];
const MIN_FIT = 0.25;

/** Bezel width in CSS px around the emulated screen (drawn outside it). */
export const BEZEL = 10;

/** The scale at which a `width`×`height` screen plus its bezel fits `stage` (at most 1). */
export function fitScale(stage: { width: number; height: number }, width: number, height: number): number {
  const w = width + 2 * BEZEL;
  const h = height + 2 * BEZEL;
  if (stage.width <= 0 || stage.height <= 0) return 1;
  const s = Math.min(1, stage.width / w, stage.height / h);
  // Whole percent; below a quarter nothing is legible, so a tiny stage scrolls instead.
  return Math.max(MIN_FIT, Math.floor(s * 100) / 100);
}

export function scaleOf(zoom: Zoom, fit: number): number {
  return zoom === 'fit' ? fit : zoom;
}

export function parseZoom(v: unknown): Zoom {
  return typeof v === 'number' && ZOOM_STEPS.includes(v) ? v : 'fit';
}
