import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ToolResult } from './ToolResult';

describe('ToolResult', () => {
  it('shows a user cancel as a neutral "cancelled", not a failure', () => {
    render(<ToolResult tool={{ name: 't', inputSchema: { type: 'object' } }} outcome={{ result: null, error: { kind: 'cancelled', message: 'cancelled by the user', code: null, data: null }, durationMs: 5 }} />);
    const box = screen.getByTestId('tool-result');
    expect(box.getAttribute('data-status')).toBe('cancelled');
    expect(box.getAttribute('data-error')).toBe('false');
    expect(box.textContent).toMatch(/^Cancelled/);
  });

  it('offers the URLs of a -32042 error and opens one only after confirmation', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(
      <ToolResult
        tool={{ name: 't', inputSchema: { type: 'object' } }}
        outcome={{
          result: null,
          error: { kind: 'server', message: 'URL elicitation required', code: -32042, data: { elicitations: [{ mode: 'url', url: 'https://auth.example.test/connect?x=1', message: 'Connect your account' }] } },
          durationMs: 5,
        }}
      />,
    );
    fireEvent.click(screen.getByTestId('url-elicitation-open'));
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('url-elicitation-confirm-open'));
    expect(open).toHaveBeenCalledWith('https://auth.example.test/connect?x=1', '_blank', 'noopener,noreferrer');
  });

  it('adds how to raise a timed-out call\'s timeout in this UI', () => {
    const message = '`tools/call` got no response within 30s (the server may be slow or stuck)';
    render(<ToolResult tool={{ name: 't', inputSchema: { type: 'object' } }} outcome={{ result: null, error: { kind: 'timeout', message, code: null, data: null }, durationMs: 30000 }} />);
    expect(screen.getByTestId('tool-error-advice').textContent).toContain('Request timeout');
    expect(screen.getByTestId('tool-result').textContent).not.toContain('--timeout');
  });
});
