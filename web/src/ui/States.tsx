import type { ReactNode } from 'react';
import { Button } from './Button';

export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="state state-empty" data-testid={testId ?? 'empty-state'}>
      <div className="state-title">{title}</div>
      {children && <div className="state-body">{children}</div>}
    </div>
  );
}

export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
  testId,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  testId?: string;
}) {
  return (
    <div className="state state-error" role="alert" data-testid={testId ?? 'error-state'}>
      <div className="state-title">{title}</div>
      <pre className="state-message">{message}</pre>
      {onRetry && (
        <Button small onClick={onRetry} data-testid="retry">
          Retry
        </Button>
      )}
    </div>
  );
}
