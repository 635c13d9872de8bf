// The one button: variants (default, primary, danger, ghost), a small size, and `busy`, which
// disables it and shows a spinner so an action under way cannot be started twice.
import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner';

type Variant = 'default' | 'primary' | 'danger' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  small?: boolean;
  busy?: boolean;
}

export function Button({ variant = 'default', small, busy, className, children, disabled, ...rest }: ButtonProps) {
  const cls = ['btn', `btn-${variant}`, small ? 'btn-sm' : '', className ?? ''].join(' ').trim();
  return (
    <button type="button" className={cls} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <Spinner small />}
      {children}
    </button>
  );
}
