// Server and API sentences mark code with Markdown backticks (`mcplab open`, `tools/list`).
// Shown to a person, those spans become <code> and the backticks go; the text stays whole.
import { Fragment } from 'react';

/** `text` with each `…` span as <code> (an unpaired backtick stays as it is). */
export function Ticks({ text }: { text: string }) {
  const parts = text.split('`');
  // An even number of parts means an odd number of backticks: the last one is unpaired.
  const paired = parts.length % 2 === 1 ? parts : [...parts.slice(0, -2), `${parts[parts.length - 2]}\`${parts[parts.length - 1]}`];
  return (
    <>
      {paired.map((p, i) => (i % 2 === 1 ? <code key={i}>{p}</code> : <Fragment key={i}>{p}</Fragment>))}
    </>
  );
}

/** The same sentence as plain text (for titles and labels): the backticks dropped. */
export function untick(text: string): string {
  return (text.match(/`/g)?.length ?? 0) % 2 === 0 ? text.replaceAll('`', '') : text;
}
