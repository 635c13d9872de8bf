// The web's copies of core's rules (apps/linkage.ts `uiLink`, `appMayCall`, and the chat's
// `modelVisible`) against the test vectors core runs too
// (crates/mcplab-core/tests/vectors/model_rules.json), so they cannot drift apart unnoticed.
// Tool naming and the catalog live only in core (the web never computes model-facing names).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../api/client';
import { appMayCall, uiLink } from '../apps/linkage';
import { modelVisible } from './hostConfig';

interface Vectors {
  uiLink: { name: string; tool: Tool; expect: { uri: string; kind: string } | null }[];
  appMayCall: { name: string; tool: Tool; expect: { mcpApp: boolean; openaiWidget: boolean } }[];
  visibility: { name: string; tool: Tool; expect: { model: boolean; app: boolean } }[];
}

const vectors: Vectors = JSON.parse(readFileSync(new URL('../../../crates/mcplab-core/tests/vectors/model_rules.json', import.meta.url), 'utf8'));

describe('shared rule vectors', () => {
  it('has cases to run', () => {
    expect(vectors.uiLink.length).toBeGreaterThan(5);
    expect(vectors.appMayCall.length).toBeGreaterThan(3);
  });
  for (const c of vectors.uiLink) {
    it(`uiLink: ${c.name}`, () => expect(uiLink(c.tool)).toEqual(c.expect));
  }
  for (const c of vectors.visibility) {
    it(`model visibility: ${c.name}`, () => expect(modelVisible(c.tool)).toBe(c.expect.model));
  }
  for (const c of vectors.appMayCall) {
    it(`appMayCall: ${c.name}`, () => {
      expect({ mcpApp: appMayCall(c.tool, 'mcpApp'), openaiWidget: appMayCall(c.tool, 'openaiWidget') }).toEqual(c.expect);
    });
  }
});
