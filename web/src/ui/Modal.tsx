// The modal dialog every confirmation and form uses, on the browser's <dialog>.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { X } from 'lucide-react';

/**
 * A modal dialog built on <dialog>: focus trap, Escape and the top layer come from the
 * browser. Closing returns focus to what had it before (the button that opened the dialog),
 * since the element is removed before the browser could restore it.
 */
export function Modal({
  title,
  children,
  footer,
  onCancel,
  testId,
  wide,
}: {
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  onCancel: () => void;
  testId?: string;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Taken while rendering: by the time effects run, an autoFocus field inside has the focus.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) {
      d.showModal();
      // showModal focuses the first focusable element (the close button); a field marked
      // `data-autofocus` is where typing should start.
      d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => {
      d?.close();
      // Later, so a dialog that replaces this one (a queue) keeps the focus it takes.
      window.setTimeout(() => {
        if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus();
      });
    };
  }, [opener]);
  return (
    <dialog
      ref={ref}
      className={`modal${wide ? ' modal-wide' : ''}`}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <div className="modal-head">
        <div className="modal-title">{title}</div>
        <button type="button" className="modal-x" aria-label="Close" onClick={onCancel}>
          <X size={16} aria-hidden="true" />
        </button>
      </div>
      <div className="modal-body">{children}</div>
      {footer && <div className="modal-foot">{footer}</div>}
    </dialog>
  );
}
