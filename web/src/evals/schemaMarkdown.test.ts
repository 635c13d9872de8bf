import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './schemaMarkdown';

describe("the schema hover's markdown", () => {
  it('escapes everything, then marks code and strong', () => {
    expect(renderMarkdown('a `b<i>` **c** <script>')).toBe('a <code>b&lt;i&gt;</code> <strong>c</strong> &lt;script&gt;');
  });
  it('makes paragraphs when not inline', () => {
    expect(renderMarkdown('one\n\ntwo', false)).toBe('<p>one</p><p>two</p>');
  });
});
