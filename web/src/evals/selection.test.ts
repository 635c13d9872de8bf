import { describe, expect, it, vi } from 'vitest';
import { parseSelection, rememberArgs, rememberedArgs, selectionArgs } from './selection';
import { offsetOf, suiteProblems } from './suiteErrors';
import { freeName, starterSuite } from './starter';

describe('the Evals selection in the URL', () => {
  it('round-trips a suite, a run, both, a new suite and nothing', () => {
    for (const sel of [
      { suite: 'a.yaml', run: null },
      { suite: 'a.yaml', run: 'r1' },
      { suite: null, run: 'r1' },
      { suite: '', run: null },
      { suite: null, run: null },
    ]) {
      expect(parseSelection(selectionArgs(sel))).toEqual(sel);
    }
  });
  it('reads the words that are never file names', () => {
    expect(parseSelection(['-', 'r9'])).toEqual({ suite: null, run: 'r9' });
    expect(parseSelection(['new'])).toEqual({ suite: '', run: null });
    expect(selectionArgs({ suite: null, run: null })).toEqual([]);
  });
});

describe('the remembered Evals selection', () => {
  it('keeps the last selection shown, never an empty one', () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 204 }));
    rememberArgs(['a.yaml', 'r1']);
    rememberArgs([]);
    expect(rememberedArgs()).toEqual(['a.yaml', 'r1']);
    rememberArgs(['-', 'r2']);
    expect(rememberedArgs()).toEqual(['-', 'r2']);
    vi.unstubAllGlobals();
  });
});

describe('suite problems from the server', () => {
  it('reads positions, keeps whole-file problems, drops the heading', () => {
    const text = '2 problems in the suite file:\n  3:9: repeat: expected an integer\n  cases: must not be empty\n';
    expect(suiteProblems(text)).toEqual([
      { line: 3, column: 9, message: 'repeat: expected an integer' },
      { line: null, column: null, message: 'cases: must not be empty' },
    ]);
  });
  it('maps a line and column to an offset, clamped to the line', () => {
    const doc = 'ab\ncdef\ng';
    expect(offsetOf(doc, 2, 3)).toBe(5);
    expect(offsetOf(doc, 2, 99)).toBe(7);
    expect(offsetOf(doc, 9, 1)).toBe(doc.length);
  });
});

describe('the starter suite', () => {
  it('takes a free name and names the servers it was given', () => {
    expect(freeName([])).toBe('starter.yaml');
    expect(freeName(['starter.yaml', 'starter-2.yaml'])).toBe('starter-3.yaml');
    expect(starterSuite(['demo', 'fs'])).toContain('servers: ["demo", "fs"]\n');
    expect(starterSuite([])).not.toContain('servers:');
  });
});
