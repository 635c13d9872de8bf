// The inspector pages' two panes: the list and the selected item. Wide windows show both side
// by side; narrow ones (CSS, `.inspector.has-selection`) show one at a time, with a way back.
import type { ReactNode } from 'react';
import { ChevronLeft, RefreshCw } from 'lucide-react';
import { Button } from '../ui/Button';
import { SearchBox } from '../ui/SearchBox';

export function MasterDetail({
  testId,
  hasSelection,
  search,
  onReload,
  reloadLabel,
  head,
  list,
  detail,
  onBack,
  backLabel,
}: {
  testId: string;
  hasSelection: boolean;
  search: { value: string; onChange: (v: string) => void; placeholder: string; label: string; testId: string };
  onReload: () => void;
  reloadLabel: string;
  /** Under the search row, above the list (e.g. the list's 2026-07-28 cache hint). */
  head?: ReactNode;
  list: ReactNode;
  detail: ReactNode;
  onBack: () => void;
  backLabel: string;
}) {
  return (
    <div className={`page inspector${hasSelection ? ' has-selection' : ''}`} data-testid={testId}>
      <aside className="side-list" aria-label={search.label.replace(/^Search /, '')}>
        <div className="side-list-head">
          <SearchBox {...search} />
          <Button small variant="ghost" onClick={onReload} title={reloadLabel} aria-label={reloadLabel} data-testid={`${testId.replace(/-page$/, '')}-reload`}>
            <RefreshCw size={14} aria-hidden="true" />
          </Button>
        </div>
        {head}
        {list}
      </aside>
      <section className="detail">
        {hasSelection && (
          <button type="button" className="linkish back-link" onClick={onBack} data-testid="detail-back">
            <ChevronLeft size={14} aria-hidden="true" /> {backLabel}
          </button>
        )}
        {detail}
      </section>
    </div>
  );
}
