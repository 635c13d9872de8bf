import { describe, expect, it } from 'vitest';
import type { HostConfig, SessionSummary } from '../api/types.gen';
import { listEntries } from './sessionGroups';

const s = (id: string, compare?: { group: string; column: number }): SessionSummary => ({
  id,
  title: id,
  createdMs: 0,
  updatedMs: 0,
  settings: { model: 'a::b', servers: [] },
  hostConfig: {} as HostConfig,
  hostHash: '',
  compare,
});

describe('listEntries', () => {
  it('shows a compare as one entry, columns in order, where its newest column is', () => {
    const list = [s('plain1'), s('c2', { group: 'g', column: 2 }), s('plain2'), s('c1', { group: 'g', column: 1 })];
    const entries = listEntries(list);
    expect(entries.map((e) => (e.kind === 'session' ? e.session.id : `${e.group}:${e.sessions.map((x) => x.id).join(',')}`))).toEqual(['plain1', 'g:c1,c2', 'plain2']);
  });
});
