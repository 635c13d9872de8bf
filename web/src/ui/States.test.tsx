import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Activity } from 'lucide-react';
import { EmptyState } from './States';

describe('EmptyState', () => {
  it("draws the page's icon, hidden from assistive technology, above the title", () => {
    const { container } = render(<EmptyState page="tools" title="Select a tool" />);
    const icon = container.querySelector('.state-icon svg');
    expect(icon?.getAttribute('aria-hidden')).toBe('true');
    expect(icon?.classList.contains('lucide-wrench')).toBe(true);
    expect(container.querySelector('.state-icon + .state-title')?.textContent).toBe('Select a tool');
  });

  it('takes another icon, or none', () => {
    expect(render(<EmptyState icon={Activity} title="No traffic yet" />).container.querySelector('.lucide-activity')).not.toBeNull();
    expect(render(<EmptyState title="Nothing" />).container.querySelector('.state-icon')).toBeNull();
  });
});
