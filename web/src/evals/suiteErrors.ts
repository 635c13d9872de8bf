// The server refuses a suite that does not load with one problem a line, each led by its
// position when it has one (`  3:9: repeat: expected an integer`, mcplab-evals' SuiteError).
// The editor marks those positions; problems without one stay in the list below it.

export interface SuiteProblem {
  /** 1-based line and column; null when the problem is the whole file's. */
  line: number | null;
  column: number | null;
  message: string;
}

const POSITIONED = /^\s*(\d+):(\d+):\s*(.*)$/;

/** The problems in a refusal's text, in order; the heading line ("2 problems in…") left out. */
export function suiteProblems(text: string): SuiteProblem[] {
  const out: SuiteProblem[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim() || /^\d+ problems? in the suite file:?$/.test(line.trim())) continue;
    const m = POSITIONED.exec(line);
    out.push(m ? { line: Number(m[1]), column: Number(m[2]), message: m[3] } : { line: null, column: null, message: line.trim() });
  }
  return out;
}

/** The document offset of a 1-based line and column, clamped into `doc`. */
export function offsetOf(doc: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = doc.indexOf('\n', at);
    if (nl < 0) return doc.length;
    at = nl + 1;
  }
  const end = doc.indexOf('\n', at);
  const lineEnd = end < 0 ? doc.length : end;
  return Math.min(at + Math.max(column - 1, 0), lineEnd);
}
