import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { Tool } from '../api/client';
import type { AppScenario } from '../api/types.gen';
import { defaultConditions } from '../apps/host';
import { DEVICES, emulationFor, type Emulation } from './devices';
import { restoredEmulation } from './useEmulation';
import { useToolInput, type ToolInputDeps } from './useToolInput';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

function mount(over: Partial<ToolInputDeps> = {}) {
  const deps: ToolInputDeps = {
    server: 'demo',
    tool: tool('show'),
    setServer: vi.fn(),
    setToolName: vi.fn(),
    emulation: emulationFor(DEVICES[0], defaultConditions()),
    setEmulation: vi.fn(),
    start: vi.fn(async () => undefined),
    ...over,
  };
  return { deps, hook: renderHook(() => useToolInput(deps)) };
}

const scenario = (over: Partial<AppScenario>) => ({ name: 's', server: 'demo', tool: 'show', arguments: { n: 1 }, conditions: null, ...over }) as unknown as AppScenario;

describe('useToolInput', () => {
  it("runs what the form accepts, and nothing when it refuses or there is no tool", () => {
    const { deps, hook } = mount();
    let answer: Record<string, unknown> | null = { q: 'x' };
    hook.result.current.formRef.current = { submit: () => answer, current: () => ({ ok: true, value: {} }) } as never;
    act(() => hook.result.current.runNow());
    expect(deps.start).toHaveBeenCalledWith('demo', 'show', { q: 'x' });
    answer = null;
    act(() => hook.result.current.runNow());
    expect(deps.start).toHaveBeenCalledTimes(1);

    const none = mount({ tool: null });
    none.hook.result.current.formRef.current = { submit: () => ({ q: 'y' }), current: () => ({ ok: true, value: {} }) } as never;
    act(() => none.hook.result.current.runNow());
    expect(none.deps.start).not.toHaveBeenCalled();
  });

  it('loads a scenario: its server, tool and arguments in a fresh form, its emulation, and runs it', () => {
    const { deps, hook } = mount();
    const key = hook.result.current.formKey;
    const saved: Partial<Emulation> = { device: 'custom', width: 500, height: 300, conditions: { theme: 'dark', locale: 'fr-FR' } as Emulation['conditions'] };
    act(() => hook.result.current.loadScenario(scenario({ server: 'other', tool: 'chart', arguments: { n: 2 }, conditions: saved as never })));
    expect(deps.setServer).toHaveBeenCalledWith('other');
    expect(deps.setToolName).toHaveBeenCalledWith('chart');
    expect(hook.result.current.initialArgs).toEqual({ n: 2 });
    expect(hook.result.current.formKey).not.toBe(key);
    expect(deps.start).toHaveBeenCalledWith('other', 'chart', { n: 2 });
    const next = vi.mocked(deps.setEmulation).mock.calls[0][0];
    expect(next).toMatchObject({ device: 'custom', width: 500, height: 300, conditions: { theme: 'dark', locale: 'fr-FR', cspMode: 'declared' } });
    // What the saved conditions lack comes from the defaults, not from nowhere.
    expect(next.conditions.availableDisplayModes).toEqual(defaultConditions().availableDisplayModes);
  });

  it('keeps the server and the emulation when the scenario names the same server and saved no conditions', () => {
    const { deps, hook } = mount();
    act(() => hook.result.current.loadScenario(scenario({})));
    expect(deps.setServer).not.toHaveBeenCalled();
    expect(deps.setEmulation).not.toHaveBeenCalled();
    expect(deps.start).toHaveBeenCalledWith('demo', 'show', { n: 1 });
  });
});

describe('restoredEmulation', () => {
  it('fills an older saved emulation with the current defaults, and starts on the first device without one', () => {
    const r = restoredEmulation({ device: 'custom', width: 400, height: 700, conditions: { theme: 'dark' } as Emulation['conditions'] });
    expect(r).toMatchObject({ width: 400, height: 700, conditions: { theme: 'dark', cspMode: 'declared', platform: 'web' } });
    expect(restoredEmulation(null)).toEqual(emulationFor(DEVICES[0], defaultConditions()));
    expect(restoredEmulation({ device: 'custom' })).toEqual(emulationFor(DEVICES[0], defaultConditions()));
  });
});
