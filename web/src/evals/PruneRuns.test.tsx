// Prune asks the server what would go (a dry run), shows it, and deletes only after the
// person confirms; the result says how much space came back. What the person typed is the
// CLI's rule: keep N per suite and/or an age.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fail, fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { PruneRuns, pruneRequest } from './PruneRuns';

const api = fakeApiEachTest();

describe('pruneRequest', () => {
  it('needs keep or an age, and a whole number to keep', () => {
    expect(pruneRequest('', '')).toBeNull();
    expect(pruneRequest('1.5', '')).toBeNull();
    expect(pruneRequest('2', '')).toEqual({ dryRun: true, keep: 2 });
    expect(pruneRequest('', ' 30d ')).toEqual({ dryRun: true, olderThan: '30d' });
  });
});

describe('PruneRuns', () => {
  it('previews, then deletes on confirm and says what came back', async () => {
    api.on('POST', '/api/evals/prune', ok({ deleted: ['r1', 'r2'], dryRun: true, bytesBefore: 4096, bytesAfter: 4096 }), ok({ deleted: ['r1', 'r2'], dryRun: false, bytesBefore: 3 * 1048576, bytesAfter: 1048576 }));
    const onPruned = vi.fn();
    renderWithQuery(<PruneRuns onPruned={onPruned} />);
    fireEvent.click(screen.getByTestId('evals-prune-open'));
    fireEvent.change(screen.getByTestId('evals-prune-keep'), { target: { value: '1' } });
    fireEvent.change(screen.getByTestId('evals-prune-age'), { target: { value: '30d' } });
    fireEvent.click(screen.getByTestId('evals-prune-preview'));
    await waitFor(() => expect(screen.getByTestId('evals-prune-plan').getAttribute('data-count')).toBe('2'));
    expect(screen.getByTestId('evals-prune-plan').textContent).toContain('Would delete 2 runs:r1r2');
    expect(api.calls).toEqual([{ method: 'POST', path: '/api/evals/prune', body: { dryRun: true, keep: 1, olderThan: '30d' } }]);
    expect(onPruned).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('evals-prune-confirm'));
    await waitFor(() => expect(screen.getByTestId('evals-prune-result').textContent).toBe('Deleted 2 runs; the database went from 3.0 MiB to 1.0 MiB (2.0 MiB reclaimed).'));
    expect(api.calls[1].body).toEqual({ dryRun: false, keep: 1, olderThan: '30d' });
    expect(onPruned).toHaveBeenCalledWith(['r1', 'r2']);
  });

  it('changing the rule drops the preview; nothing matching offers no delete; a refusal is shown', async () => {
    api.on('POST', '/api/evals/prune', ok({ deleted: [], dryRun: true, bytesBefore: 1, bytesAfter: 1 }), fail(400, '`3x`: write a number and s, m, h, d or w (e.g. 30d)'));
    renderWithQuery(<PruneRuns onPruned={() => {}} />);
    fireEvent.click(screen.getByTestId('evals-prune-open'));
    fireEvent.click(screen.getByTestId('evals-prune-preview'));
    await waitFor(() => expect(screen.getByTestId('evals-prune-plan').textContent).toContain('Nothing to delete'));
    expect(screen.queryByTestId('evals-prune-confirm')).toBeNull();
    fireEvent.change(screen.getByTestId('evals-prune-age'), { target: { value: '3x' } });
    expect(screen.queryByTestId('evals-prune-plan')).toBeNull();
    fireEvent.click(screen.getByTestId('evals-prune-preview'));
    await waitFor(() => expect(screen.getByTestId('evals-prune-error').textContent).toContain('e.g. 30d'));
  });
});
