import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Modal } from './Modal';

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>open</button>
      {open && (
        <Modal title="Hello" onCancel={() => setOpen(false)}>
          <input aria-label="inside" data-autofocus />
        </Modal>
      )}
    </>
  );
}

describe('Modal', () => {
  it('returns focus to the button that opened it', async () => {
    render(<Opener />);
    const trigger = screen.getByText('open');
    trigger.focus();
    fireEvent.click(trigger);
    expect(document.activeElement).toBe(screen.getByLabelText('inside'));
    fireEvent.click(screen.getByLabelText('Close'));
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });
});
