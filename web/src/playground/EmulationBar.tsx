// The emulation controls of the app playground, in labelled groups on a two-column grid
// (device, look and language, display, safe area, sandbox). Every change is applied live: the
// app gets `ui/notifications/host-context-changed` (and `openai:set_globals` through the shim)
// without a reload. Only the CSP mode and the shim switch need a reload, and say so.
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import { DISPLAY_MODES, type DisplayMode, type HostConditions, type SafeArea } from '../apps/host';
import { DEVICES, LOCALES, SAFE_AREAS, TIME_ZONES, emulationFor, rotate, safeAreaPreset, toggleMode, type Emulation } from './devices';

const MODE_LABEL: Record<DisplayMode, string> = { inline: 'inline', fullscreen: 'fullscreen', pip: 'picture-in-picture' };

/** A whole number ≥ `min`. What is typed stays as typed until it is a valid value (so "1280"
 * can be typed digit by digit); leaving the field shows the value in effect. */
function NumberField({ label, value, onChange, testId, min = 0 }: { label: string; value: number; onChange: (n: number) => void; testId: string; min?: number }) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <label className="emu-num">
      <span>{label}</span>
      <input
        type="number"
        inputMode="numeric"
        min={min}
        value={draft ?? String(value)}
        data-testid={testId}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          const n = Number(text);
          if (text.trim() !== '' && Number.isFinite(n) && n >= min) onChange(Math.round(n));
        }}
        onBlur={() => setDraft(null)}
      />
    </label>
  );
}

export function EmulationBar({ value, onChange }: { value: Emulation; onChange: (e: Emulation) => void }) {
  const c = value.conditions;
  const set = (patch: Partial<HostConditions>) => onChange({ ...value, conditions: { ...c, ...patch } });
  const [stylesText, setStylesText] = useState(() => JSON.stringify(c.styleOverrides ?? {}, null, 2));
  const [stylesError, setStylesError] = useState<string | null>(null);
  const preset = safeAreaPreset(c.safeArea);
  const timeZones = TIME_ZONES.includes(c.timeZone) ? TIME_ZONES : [c.timeZone, ...TIME_ZONES];
  const setInset = (k: keyof SafeArea, n: number) => set({ safeArea: { ...c.safeArea, [k]: n } });

  return (
    <div className="emu-bar" data-testid="emulation-bar">
      <fieldset className="emu-group emu-device">
        <legend>Device</legend>
        <label className="emu-wide">
          <span>Preset</span>
          <select
            value={value.device}
            data-testid="emu-device"
            onChange={(e) => {
              const d = DEVICES.find((x) => x.id === e.target.value);
              onChange(d ? emulationFor(d, c) : { ...value, device: 'custom' });
            }}
          >
            {DEVICES.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
            <option value="custom">Custom…</option>
          </select>
        </label>
        <NumberField label="Width" value={value.width} testId="emu-width" min={120} onChange={(w) => onChange({ ...value, device: 'custom', width: w, conditions: { ...c, width: w } })} />
        <NumberField label="Height" value={value.height} testId="emu-height" min={120} onChange={(h) => onChange({ ...value, device: 'custom', height: h, conditions: { ...c, maxHeight: Math.min(c.maxHeight ?? h, h) } })} />
        <button type="button" className="btn btn-sm emu-rotate" data-testid="emu-rotate" onClick={() => onChange(rotate(value))} title="Swap width and height">
          <RotateCw size={14} aria-hidden="true" /> Rotate
        </button>
      </fieldset>
      <fieldset className="emu-group">
        <legend>Look and language</legend>
        <label>
          <span>Theme</span>
          <select value={c.theme} data-testid="emu-theme" onChange={(e) => set({ theme: e.target.value as HostConditions['theme'] })}>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <label>
          <span>Locale</span>
          <select value={c.locale} data-testid="emu-locale" onChange={(e) => set({ locale: e.target.value })}>
            {!LOCALES.some((l) => l.id === c.locale) && <option value={c.locale}>{c.locale}</option>}
            {LOCALES.map((l) => (
              <option key={l.id} value={l.id}>
                {l.id} · {l.label}
              </option>
            ))}
          </select>
        </label>
        <label className="emu-wide">
          <span>Time zone</span>
          <select value={c.timeZone} data-testid="emu-timezone" onChange={(e) => set({ timeZone: e.target.value })}>
            {timeZones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <fieldset className="emu-group">
        <legend>Display</legend>
        <label>
          <span>Mode</span>
          <select value={c.displayMode ?? 'inline'} data-testid="emu-display-mode" onChange={(e) => set({ displayMode: e.target.value as DisplayMode })}>
            {DISPLAY_MODES.map((m) => (
              <option key={m} value={m} disabled={!c.availableDisplayModes.includes(m)}>
                {MODE_LABEL[m]}
              </option>
            ))}
          </select>
        </label>
        <NumberField label="Max height" value={c.maxHeight ?? value.height} testId="emu-max-height" min={40} onChange={(n) => set({ maxHeight: n })} />
        <div className="emu-wide emu-checks" title="The display modes the host offers (requests for others are refused)">
          <span className="emu-checks-label">Offers</span>
          {DISPLAY_MODES.map((m) => (
            <label key={m} className="emu-check">
              <input
                type="checkbox"
                checked={c.availableDisplayModes.includes(m)}
                disabled={m === 'inline'}
                data-testid={`emu-offer-${m}`}
                onChange={(e) => set({ availableDisplayModes: toggleMode(c.availableDisplayModes, m, e.target.checked) })}
              />
              {m}
            </label>
          ))}
        </div>
        <div className="emu-wide emu-checks">
          <span className="emu-checks-label">Input</span>
          <label className="emu-check">
            <input type="checkbox" checked={c.hover} data-testid="emu-hover" onChange={(e) => set({ hover: e.target.checked })} /> hover
          </label>
          <label className="emu-check">
            <input type="checkbox" checked={c.touch} data-testid="emu-touch" onChange={(e) => set({ touch: e.target.checked })} /> touch
          </label>
        </div>
      </fieldset>
      <fieldset className="emu-group">
        <legend>Safe area</legend>
        <label className="emu-wide">
          <span>Preset</span>
          <select
            value={preset}
            data-testid="emu-safe-area"
            onChange={(e) => {
              const p = SAFE_AREAS.find((x) => x.id === e.target.value);
              if (p) set({ safeArea: { ...p.insets } });
            }}
          >
            {SAFE_AREAS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
            <option value="custom" disabled>
              Custom
            </option>
          </select>
        </label>
        <div className="emu-wide emu-insets">
          {(['top', 'right', 'bottom', 'left'] as const).map((k) => (
            <NumberField key={k} label={k[0].toUpperCase() + k.slice(1)} value={c.safeArea[k]} testId={`emu-inset-${k}`} onChange={(n) => setInset(k, n)} />
          ))}
        </div>
      </fieldset>
      <fieldset className="emu-group">
        <legend>Sandbox</legend>
        <label>
          <span>CSP</span>
          <select value={c.cspMode} data-testid="emu-csp" onChange={(e) => set({ cspMode: e.target.value as HostConditions['cspMode'] })} title="Changing it reloads the app">
            <option value="declared">as declared</option>
            <option value="permissive">permissive (first try only)</option>
          </select>
        </label>
        <label className="emu-check emu-shim" title="Inject window.openai into MCP Apps too (reloads the app)">
          <input type="checkbox" checked={c.openaiShim} data-testid="emu-openai-shim" onChange={(e) => set({ openaiShim: e.target.checked })} /> window.openai
        </label>
      </fieldset>
      <details className="emu-styles">
        <summary className="small">Host style variables</summary>
        <textarea
          className="mono small"
          rows={5}
          value={stylesText}
          data-testid="emu-styles"
          spellCheck={false}
          onChange={(e) => {
            setStylesText(e.target.value);
            try {
              const parsed = JSON.parse(e.target.value || '{}');
              if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected an object of CSS variables');
              const vars = Object.fromEntries(Object.entries(parsed).filter(([k, v]) => k.startsWith('--') && typeof v === 'string')) as Record<string, string>;
              setStylesError(null);
              set({ styleOverrides: vars });
            } catch (err) {
              setStylesError((err as Error).message);
            }
          }}
          placeholder='{"--color-background-primary": "#fffbe6"}'
        />
        {stylesError && <div className="inline-error small">{stylesError}</div>}
      </details>
    </div>
  );
}
