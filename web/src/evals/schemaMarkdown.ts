// codemirror-json-schema renders the schema's descriptions and its messages with markdown-it
// and shiki (about 600 kB with a regex engine and grammars); vite.config.ts points its
// `utils/markdown` here instead. The suite schema's prose needs little: text escaped, `code`
// spans as <code>, **strong**, blank-line paragraphs. The result goes into innerHTML, so
// nothing of the input survives unescaped.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]);

function spans(text: string): string {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

export function renderMarkdown(markdown: string, inline = true): string {
  if (inline) return spans(markdown);
  return markdown
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => `<p>${spans(p)}</p>`)
    .join('');
}
