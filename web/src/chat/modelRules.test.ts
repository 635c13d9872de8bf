// The web's copies of core's rules (apps/linkage.ts `uiLink`, `appMayCall`) against the test
// vectors core runs too (crates/mcplab-core/tests/vectors/model_rules.json), so the two
// cannot drift apart unnoticed. The catalog and visibility-for-the-model rules live only in
// core (the API computes what the model sees); their vectors are run there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../api/client';
import { appMayCall, uiLink } from '../apps/linkage';

interface Vectors {
  uiLink: { name: string; tool: Tool; expect: { uri: string; kind: string } | null }[];
  appMayCall: { name: string; tool: Tool; expect: { mcpApp: boolean; openaiWidget: boolean } }[];
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
  for (const c of vectors.appMayCall) {
    it(`appMayCall: ${c.name}`, () => {
      expect({ mcpApp: appMayCall(c.tool, 'mcpApp'), openaiWidget: appMayCall(c.tool, 'openaiWidget') }).toEqual(c.expect);
    });
  }
});
