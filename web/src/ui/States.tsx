// The empty and error states of a page or panel. An error shows its message whole (or as
// prose for a sentence meant for a person) and a Retry button when there is something to retry.
import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { PAGE_ICONS } from './pageIcons';
import type { Page } from './route';
import { Button } from './Button';
import { Ticks } from './Ticks';

/** Nothing to show yet: a title, what to do next, and the page's icon (or another) above them. */
export function EmptyState({ title, children, testId, page, icon }: { title: string; children?: ReactNode; testId?: string; page?: Page; icon?: LucideIcon }) {
  const Icon = icon ?? (page ? PAGE_ICONS[page] : undefined);
  return (
    <div className="state state-empty" data-testid={testId ?? 'empty-state'}>
      {Icon && (
        <span className="state-icon">
          <Icon size={22} aria-hidden="true" />
        </span>
      )}
      <div className="state-title">{title}</div>
      {children && <div className="state-body">{children}</div>}
    </div>
  );
}

export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
  retryLabel = 'Retry',
  testId,
  prose,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  retryLabel?: string;
  testId?: string;
  /** A sentence for a person (not program output): shown in the body font. */
  prose?: boolean;
}) {
  return (
    <div className="state state-error" role="alert" data-testid={testId ?? 'error-state'}>
      <div className="state-title">{title}</div>
      {prose ? <p className="state-message state-prose">
          <Ticks text={message} />
        </p> : <pre className="state-message">{message}</pre>}
      {onRetry && (
        <Button small onClick={onRetry} data-testid="retry">
          {retryLabel}
        </Button>
      )}
    </div>
  );
}
