import { join } from 'node:path';
import ts from 'typescript';
import { MODULES } from './k8s-schema';
import type { K8sObject } from './render';
import { ROOT } from './repo';

/**
 * The JSON schemas accept fields they do not know (as the upstream OpenAPI does), but `kubectl
 * apply` rejects them (strict field validation): a misspelt `readinessProbe` would pass the schema
 * and fail on a cluster. So each object is also type-checked against the TypeScript interface of
 * its kind (`I<Kind>` from kubernetes-models): an object literal with an unknown property, at any
 * depth, is a compile error.
 */
const parsed = new Map<string, ts.SourceFile>();

export function unknownFieldProblems(objects: K8sObject[]): string[] {
  const file = join(ROOT, 'test', 'deploy', '__rendered_objects__.ts');
  const lines = objects.map((o, i) => {
    const module = MODULES[o.apiVersion];
    if (!module) return `// ${i}: no types for ${o.apiVersion}`;
    return `export const o${i}: import('${module}/${o.kind}').I${o.kind} = ${JSON.stringify(o)};`;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
    lib: ['lib.es2022.d.ts'],
    ignoreDeprecations: '6.0',
  };
  const host = ts.createCompilerHost(options);
  const text = lines.join('\n');
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) => {
    if (name === file) return ts.createSourceFile(name, text, version);
    // Library declarations are the same for every call: parse them once.
    const cached = parsed.get(name) ?? getSourceFile.call(host, name, version, ...rest);
    if (cached) parsed.set(name, cached);
    return cached;
  };
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? text : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const object = d.file?.fileName === file ? objects[line] : undefined;
    const where = object ? `${object.kind}/${object.metadata.name}` : (d.file?.fileName ?? 'compiler');
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
