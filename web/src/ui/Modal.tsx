import { useEffect, useRef, type ReactNode } from 'react';

/** A modal dialog built on <dialog>: focus trap, Escape and the top layer come from the browser. */
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
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
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
          ×
        </button>
      </div>
      <div className="modal-body">{children}</div>
      {footer && <div className="modal-foot">{footer}</div>}
    </dialog>
  );
}
