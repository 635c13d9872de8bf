// A truncated frame's whole text is fetched only when asked for, once per ask; a failure says
// why and the button asks again; showing another frame starts over without fetching.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TrafficFrame } from '../api/types.gen';
import { fail, fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { TruncationNotice, useWholeFrame } from './WholeFrame';

const frame = (seq: number, text: string, fullBytes?: number): TrafficFrame => ({ seq, server: 'srv', tsMs: 1, direction: 'inbound', text, fullBytes, kind: 'message' });
const cut = frame(7, '{"a":', 4000);

function Notice({ f }: { f: TrafficFrame }) {
  const { whole, load } = useWholeFrame(f);
  return <TruncationNotice frame={f} whole={whole} load={load} />;
}

const api = fakeApiEachTest();

const notice = () => screen.getByTestId('frame-truncated').dataset.state;

describe('useWholeFrame', () => {
  it('fetches the whole frame only when asked', async () => {
    api.on('GET', '/api/servers/srv/traffic/7', ok(frame(7, `{"a":"${'x'.repeat(3990)}"}`)));
    renderWithQuery(<Notice f={cut} />);
    expect(notice()).toBe('idle');
    expect(api.calls).toEqual([]);
    fireEvent.click(screen.getByTestId('frame-load-whole'));
    await waitFor(() => expect(notice()).toBe('loaded'));
    expect(screen.getByTestId('frame-truncated').textContent).toContain('Showing the whole frame: 4,000 bytes');
    expect(api.count('GET', '/api/servers/srv/traffic/7')).toBe(1);
  });

  it('says why it failed and asks again on the button', async () => {
    api.on('GET', '/api/servers/srv/traffic/7', fail(404, 'frame 7 is no longer in the traffic ring'), ok(frame(7, 'whole')));
    renderWithQuery(<Notice f={cut} />);
    fireEvent.click(screen.getByTestId('frame-load-whole'));
    expect((await screen.findByTestId('frame-whole-error')).textContent).toContain('no longer in the traffic ring');
    fireEvent.click(screen.getByTestId('frame-load-whole'));
    await waitFor(() => expect(notice()).toBe('loaded'));
    expect(api.count('GET', '/api/servers/srv/traffic/7')).toBe(2);
  });

  it('starts over for another frame, and for the same one shown again', async () => {
    api.on('GET', '/api/servers/srv/traffic/7', ok(frame(7, 'whole')));
    const { rerender } = renderWithQuery(<Notice f={cut} />);
    fireEvent.click(screen.getByTestId('frame-load-whole'));
    await waitFor(() => expect(notice()).toBe('loaded'));
    rerender(<Notice f={frame(8, '{"b":', 5000)} />);
    expect(notice()).toBe('idle');
    rerender(<Notice f={cut} />);
    expect(notice()).toBe('idle');
    expect(api.calls.length).toBe(1);
  });
});
