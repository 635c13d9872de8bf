import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Ticks, untick } from './Ticks';

describe('Ticks', () => {
  it('shows backticked spans as code, without the backticks', () => {
    const { container } = render(<Ticks text="skipped `bad`: needs `command` or `url`" />);
    expect(container.textContent).toBe('skipped bad: needs command or url');
    expect([...container.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['bad', 'command', 'url']);
  });

  it('keeps an unpaired backtick as text', () => {
    const { container } = render(<Ticks text="a `b` c ` d" />);
    expect(container.textContent).toBe('a b c ` d');
    expect(container.querySelectorAll('code')).toHaveLength(1);
  });

  it('drops paired backticks from a plain label', () => {
    expect(untick('`tools/list` served from cache')).toBe('tools/list served from cache');
    expect(untick('one ` alone')).toBe('one ` alone');
  });
});
