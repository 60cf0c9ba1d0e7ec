// Lints code snippets as if they were files at given paths inside the workspace, with the real root
// eslint.config.mjs, through ESLint's Node API. It runs as a plain Node child process of
// module-boundaries.int-spec.ts because Jest's module VM cannot import() an ESM flat config.
//
// stdin:  {"cwd": "<repo root>", "out": "<result file>", "cases": [{"filePath": "libs/x/src/a.ts", "code": "..."}],
//          "configFor": ["libs/x/src/a.ts", ...], "lintFiles": ["apps", "libs"],
//          "onlyRule": "<rule id>" or ["<rule id>", ...] (optional)}
// writes: {"cases": [{"messages": [...]}], "configs": [{"filePath", "rule"}], "files": [{"filePath", "messages"}]}
// to `out` (stdout stays free for whatever Nx or ESLint print, which the spec inspects).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));

// @nx/enforce-module-boundaries keeps the project graph it read for the next file only in a terminal
// run, which it recognises by process.argv[1] being ESLint's (or Jest's, or Nx's) bin; elsewhere (an
// editor) it reads and parses the cached graph again for every file, which was half of this run over
// ~1,000 files. This process lints as `npx eslint` does, so it says so.
process.argv[1] = resolve(input.cwd, 'node_modules', 'eslint', 'bin', 'eslint.js');

// `onlyRule`: the other rules of the config are not run (their messages would be dropped by the
// caller anyway); the config, its parser and the files linted stay the same.
const onlyRules = input.onlyRule ? [input.onlyRule].flat() : null;
const eslint = new ESLint({ cwd: input.cwd, ...(onlyRules ? { ruleFilter: ({ ruleId }) => onlyRules.includes(ruleId) } : {}) });
const pick = (m) => ({ ruleId: m.ruleId, severity: m.severity, message: m.message, line: m.line, fatal: !!m.fatal });

const cases = [];
for (const c of input.cases ?? []) {
  const [result] = await eslint.lintText(c.code, { filePath: resolve(input.cwd, c.filePath) });
  cases.push({ filePath: c.filePath, messages: result.messages.map(pick) });
}

const configs = [];
for (const filePath of input.configFor ?? []) {
  const config = await eslint.calculateConfigForFile(resolve(input.cwd, filePath));
  configs.push({ filePath, rule: config?.rules?.['@nx/enforce-module-boundaries'] ?? null });
}

const files = [];
if (input.lintFiles?.length) {
  for (const r of await eslint.lintFiles(input.lintFiles)) {
    files.push({ filePath: r.filePath, messages: r.messages.map(pick) });
  }
}

writeFileSync(input.out, JSON.stringify({ cases, configs, files }));
