// The host's confirmation for what an app may only do with the user's consent: open a link,
// save files. The app's request waits (it gets `isError` when the user says no). The dialog is
// the host speaking, so it is rendered at the document's root, outside any emulated device
// (whose size, zoom, locale and direction are the app's, not the host's).
import { useCallback, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';

export interface ConfirmRequest {
  kind: 'link' | 'download';
  title: string;
  detail: string;
  resolve: (ok: boolean) => void;
}

export function AppConfirm({ request, onDone }: { request: ConfirmRequest; onDone: (ok: boolean) => void }) {
  return (
    <Modal
      title={request.title}
      onCancel={() => onDone(false)}
      testId="app-confirm"
      footer={
        <>
          <Button onClick={() => onDone(false)} data-testid="app-confirm-cancel">
            Cancel
          </Button>
          <Button variant="primary" onClick={() => onDone(true)} data-testid="app-confirm-ok">
            {request.kind === 'link' ? 'Open' : 'Save'}
          </Button>
        </>
      }
    >
      <p className="small muted">{request.kind === 'link' ? 'The app wants to open this address in a new tab:' : 'The app wants to save:'}</p>
      <p className="mono app-confirm-detail" data-testid="app-confirm-detail">
        {request.detail}
      </p>
    </Modal>
  );
}

/** The dialog element to render, and `ask`, which shows it and resolves with the answer. */
export function useConfirm(): [ReactNode, (r: Omit<ConfirmRequest, 'resolve'>) => Promise<boolean>] {
  const [pending, setPending] = useState<ConfirmRequest | null>(null);
  const ask = useCallback((r: Omit<ConfirmRequest, 'resolve'>) => new Promise<boolean>((resolve) => setPending({ ...r, resolve })), []);
  const dialog =
    pending &&
    createPortal(
      <AppConfirm
        request={pending}
        onDone={(ok) => {
          pending.resolve(ok);
          setPending(null);
        }}
      />,
      document.body,
    );
  return [dialog, ask];
}
