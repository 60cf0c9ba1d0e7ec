/** `archive-note` → `ArchiveNote`. */
export function pascal(kebab: string): string {
  return kebab
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

/** `archive-note` → `archiveNote`. */
export function camel(kebab: string): string {
  const p = pascal(kebab);
  return p[0].toLowerCase() + p.slice(1);
}

/** `knowledge-base` → `KNOWLEDGE_BASE`. */
export function constant(kebab: string): string {
  return kebab.replace(/-/g, '_').toUpperCase();
}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function assertKebab(what: string, value: string): void {
  if (!KEBAB.test(value)) throw new Error(`${what} "${value}" must be kebab-case (e.g. archive-note)`);
}

/**
 * Inserts `item` as the last element of the array (or object) literal that follows `marker` in `text` (the
 * `export const X_ROUTES … = [` or `export const X_HANDLERS … = [` of a file): on a line of its own when
 * the array is written one element per line, after a comma otherwise.
 */
export function appendToArray(text: string, marker: string, item: string, file: string): string {
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`${file}: no "${marker}"`);
  const literal = /= ([[{])/.exec(text.slice(start));
  if (!literal) throw new Error(`${file}: no "= [" or "= {" after "${marker}"`);
  const open = start + literal.index + 2;
  const [opening, closing] = literal[1] === '[' ? ['[', ']'] : ['{', '}'];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === opening) depth++;
    if (text[i] === closing && --depth === 0) {
      const before = text.slice(open + 1, i);
      if (/,\s*\n\s*$/.test(before)) {
        const lineStart = text.lastIndexOf('\n', i - 1) + 1;
        return `${text.slice(0, lineStart)}  ${item},\n${text.slice(lineStart)}`;
      }
      const trimmed = before.trimEnd();
      const sep = trimmed.length === 0 ? '' : trimmed.endsWith(',') ? ' ' : ', ';
      const at = open + 1 + trimmed.length;
      return `${text.slice(0, at)}${sep}${item}${text.slice(i)}`;
    }
  }
  throw new Error(`${file}: the array after "${marker}" is not closed`);
}

/** Adds `line` after the last top-level import of `text`. */
export function addImport(text: string, line: string): string {
  const imports = [...text.matchAll(/^import [^;]*;\n/gm)];
  if (!imports.length) return `${line}\n${text}`;
  const last = imports[imports.length - 1];
  const at = (last.index ?? 0) + last[0].length;
  return `${text.slice(0, at)}${line}\n${text.slice(at)}`;
}

/** Adds `line` after the last `export * from` of `text`, or before `marker` when there is none. */
export function addExportStar(text: string, line: string, marker: string): string {
  const exports = [...text.matchAll(/^export \* from [^;]*;\n/gm)];
  if (exports.length) {
    const last = exports[exports.length - 1];
    const at = (last.index ?? 0) + last[0].length;
    return `${text.slice(0, at)}${line}\n${text.slice(at)}`;
  }
  const at = text.indexOf(marker);
  return `${text.slice(0, at)}${line}\n\n${text.slice(at)}`;
}
