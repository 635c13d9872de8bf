// The search field at the top of a list: `/` anywhere on the page (outside a text field)
// focuses it, Escape clears it, ↓ moves into the results (the selected one, else the first,
// selecting it) and Enter opens the first result.
import { useEffect, useRef } from 'react';
import { Search } from 'lucide-react';

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export function SearchBox({ value, onChange, placeholder, label, testId }: { value: string; onChange: (v: string) => void; placeholder: string; label: string; testId: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      ref.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <span className="search-box">
      <Search size={14} aria-hidden="true" className="search-icon" />
      <input
        ref={ref}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value) {
            e.preventDefault();
            onChange('');
          } else if (e.key === 'ArrowDown' || e.key === 'Enter') {
            const list = ref.current?.closest('.side-list')?.querySelector('[role="listbox"]');
            const option = list?.querySelector<HTMLElement>(e.key === 'Enter' ? '[role="option"]' : '[role="option"][tabindex="0"]');
            if (!option) return;
            e.preventDefault();
            if (option.getAttribute('aria-selected') !== 'true') option.click();
            option.focus();
          }
        }}
        data-testid={testId}
        aria-label={label}
        aria-keyshortcuts="/"
        title="Search (press / to focus)"
      />
    </span>
  );
}
