// The suite editor's dark theme: CodeMirror's One Dark (what @uiw/react-codemirror's 'dark' is)
// with the colours that fall under 4.5:1 on its background (#282c34) or its active line
// (#2c313a) made lighter: the red of keys (4.4:1, 4.1:1 on the active line), the violet of
// keywords (4.4:1 there) and the grey of comments and line numbers (3.9:1, 3.6:1). Every other
// colour of One Dark is 5.3:1 or more on both.
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { oneDarkHighlightStyle, oneDarkTheme } from '@uiw/react-codemirror';

/** One Dark's colour → the lighter one used instead (≥ 4.7:1 on both backgrounds). */
const LIGHTER: Record<string, string> = { '#e06c75': '#e97a83', '#c678dd': '#cb80e1', '#7d8799': '#939cad' };

const highlight = HighlightStyle.define(
  oneDarkHighlightStyle.specs.map((s) => (typeof s.color === 'string' && LIGHTER[s.color] ? { ...s, color: LIGHTER[s.color] } : s)),
  { themeType: 'dark' },
);

export const darkTheme = [oneDarkTheme, EditorView.theme({ '.cm-gutters .cm-gutterElement': { color: LIGHTER['#7d8799'] } }, { dark: true }), syntaxHighlighting(highlight)];
