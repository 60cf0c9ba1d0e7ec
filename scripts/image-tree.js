#!/usr/bin/env node
'use strict';
/**
 * Assembles what the runtime image holds from a built checkout (the Dockerfile's build stage runs it,
 * and scripts/build-image.sh on the host, so both ways give the same tree):
 *
 *   <out>/app/   package.json, prisma/ (the migrations), and for each project of apps/ and libs/ its
 *                package.json and dist/ — no sources, no tests
 *   <out>/deps/node_modules/   (and <out>/deps.hash, see --deps-hash)
 *                the production dependencies: what the root and the projects list under
 *                `dependencies` (and `optionalDependencies`), followed through each package's own
 *                dependencies, optional ones and required peers, as Node resolves them; the @mapi/*
 *                links as links (into <app>); no .bin, no TypeScript sources or declarations, no
 *                Markdown, no *.spec.js / *.test.js;
 *   <out>/deps/sbom.cdx.json
 *                a CycloneDX SBOM of those packages (in the image: /app/sbom.cdx.json) Files are hard links into the checkout's node_modules (a second build
 *                copies nothing); `npm install` replaces files rather than rewriting them, so the
 *                links stay as they were taken.
 *
 * Not followed (NOT_RUNTIME below), so an image carries no build tool: edges a package declares that
 * its code never loads at run time. `npm prune --omit=dev` keeps them (they are dependencies or
 * required peers), which is why this walk replaces it.
 *
 *   node scripts/image-tree.js <src> <out>               both parts
 *   node scripts/image-tree.js <src> <out> --app-only    <out>/app only
 *   node scripts/image-tree.js <src> <out> --deps-only   <out>/deps only
 *   node scripts/image-tree.js <src> --deps-hash         prints the hash of what the deps part is made from
 *
 * <out>/app and <out>/deps are replaced. A project folder without package.json (an app being created)
 * is left out; a project without dist/ gets its package.json only.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

/** Declared dependencies that are not loaded at run time (name → why). */
const NOT_RUNTIME = {
  // baileys declares its lint configuration (ESLint, typescript-eslint, …) as a dependency.
  '@whiskeysockets/eslint-config': 'baileys lists its ESLint configuration under dependencies',
  // Required peers of @prisma/client: the CLI (generate, migrate) and the compiler. The generated
  // client runs on @prisma/adapter-pg without them; migrations run from libs/db (migrate-cli).
  prisma: 'a peer of @prisma/client: the Prisma CLI, used at build time only',
  typescript: 'a peer of @prisma/client and others: the compiler, used at build time only',
};
/** The pdf.js build pdf-parse's lib/pdf-parse.js loads when given no version (its DEFAULT_OPTIONS). */
const PDF_PARSE_PDFJS = 'v1.10.100';
/**
 * Files of one package that the runtime never loads (package name → test on the path inside it):
 * @prisma/client carries its query compiler for every database, in two sizes, as CommonJS and ES
 * modules; the client generated from prisma/schema (provider postgresql) loads one of them.
 */
const DROP_IN_PACKAGE = {
  '@prisma/client': (rel) =>
    /^runtime\/[^/]*\.(mysql|sqlite|sqlserver|cockroachdb)\./.test(rel) ||
    // the generated client is CommonJS and loads the "fast" PostgreSQL compiler: the ES-module twins,
    // the "small" compiler and the edge build are never loaded (image-tree.spec.ts reads what it loads)
    /^runtime\/[^/]+\.mjs$/.test(rel) ||
    /^runtime\/(query_compiler_small_bg|wasm-compiler-edge)\./.test(rel),
  // pdf-parse bundles four pdf.js builds; lib/pdf-parse.js (what extract-text.ts requires, with no
  // version option) loads PDF_PARSE_PDFJS only: the other three are 24 MB never loaded.
  'pdf-parse': (rel) => {
    const [lib, folder, build] = rel.split('/');
    return lib === 'lib' && folder === 'pdf.js' && build !== undefined && build !== PDF_PARSE_PDFJS;
  },
  // OpenTelemetry's packages ship CommonJS (build/src, their main) and two ES-module builds
  // (build/esm, build/esnext) that require() never loads.
  '@opentelemetry/*': (rel) => /^build\/(esm|esnext)\//.test(rel),
  // mqtt (the event sinks' client) ships browser bundles in dist/ (1.5 MB); Node's require loads build/.
  mqtt: (rel) => rel.startsWith('dist/'),
  // rxjs (NestJS's) ships CommonJS (dist/cjs, what require loads: its `node` and `require` exports)
  // and two ES-module builds and UMD bundles (2.6 MB) that require() never loads.
  rxjs: (rel) => /^dist\/(esm|esm5|bundles)\//.test(rel),
  // node-wav (baileys' audio) is index.js alone (it requires nothing); the rest is its author's
  // test data shipped by mistake: x.json, file.wav, x.js, tests/ (7.6 MB).
  'node-wav': (rel) => rel !== 'index.js' && rel !== 'package.json',
};
/** The DROP_IN_PACKAGE test of a package: by its name, or by its scope (`@scope/*`). */
const dropInPackage = (name) => DROP_IN_PACKAGE[name] ?? (name.startsWith('@') ? DROP_IN_PACKAGE[`${name.split('/')[0]}/*`] : undefined);
/**
 * Files dropped from node_modules: TypeScript sources and declarations, Markdown, packages' own tests,
 * and the packages' source maps (55 MB: with --enable-source-maps a stack frame inside a dependency
 * shows its built file's position instead; the apps' own maps, in their dist/, stay), declarations' maps included.
 */
const DROP_FILE = /(\.[cm]?ts|\.tsx|\.md|\.markdown|\.(spec|test)\.[cm]?js|\.[cm]?js\.map|\.d\.[cm]?ts\.map)$/i;

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The projects: apps/* and libs/* folders with a package.json. */
function projects(src) {
  const out = [];
  for (const group of ['apps', 'libs']) {
    const dir = path.join(src, group);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      if (fs.existsSync(path.join(dir, name, 'package.json'))) out.push(`${group}/${name}`);
    }
  }
  return out;
}

/** Copies a tree (real copies: dist/ is rewritten in place by the next build). */
function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: false, force: true });
}

function assembleApp(src, out) {
  const app = path.join(out, 'app');
  fs.rmSync(app, { recursive: true, force: true });
  fs.mkdirSync(app, { recursive: true });
  fs.copyFileSync(path.join(src, 'package.json'), path.join(app, 'package.json'));
  copyTree(path.join(src, 'prisma'), path.join(app, 'prisma'));
  for (const project of projects(src)) {
    fs.mkdirSync(path.join(app, project), { recursive: true });
    fs.copyFileSync(path.join(src, project, 'package.json'), path.join(app, project, 'package.json'));
    const dist = path.join(src, project, 'dist');
    if (!fs.existsSync(dist)) continue;
    // Another build may be rewriting dist/ meanwhile: one retry takes the tree it leaves.
    try {
      copyTree(dist, path.join(app, project, 'dist'));
    } catch {
      fs.rmSync(path.join(app, project, 'dist'), { recursive: true, force: true });
      copyTree(dist, path.join(app, project, 'dist'));
    }
  }
  // No sources and no tests, whatever a build left in dist/.
  const stray = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(spec|int-spec|e2e-spec|test)\.[cm]?js(\.map)?$/.test(entry.name) || /\.[cm]?tsx?$/.test(entry.name)) stray.push(p);
    }
  };
  walk(app);
  for (const p of stray) fs.rmSync(p);
}

/** Where Node finds package `name` required from package directory `from` (inside src). */
function resolvePackage(src, from, name) {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.resolve(dir) === path.resolve(src)) return null;
    const parent = path.dirname(dir);
    // From src/node_modules/a/node_modules/b the next place is src/node_modules/a, then src.
    dir = path.basename(parent) === 'node_modules' ? path.dirname(parent) : parent;
  }
}

/** The package directories (relative to src) of the production closure, and the workspace links. */
function productionClosure(src) {
  const keep = new Set();
  const links = new Set();
  const missing = [];
  const queue = [];
  const wants = (pkg, optionalOnly = false) => {
    const names = [];
    if (!optionalOnly) names.push(...Object.keys(pkg.dependencies ?? {}));
    names.push(...Object.keys(pkg.optionalDependencies ?? {}));
    return names;
  };
  const visit = (fromDir, name, optional) => {
    if (NOT_RUNTIME[name]) return;
    const found = resolvePackage(src, fromDir, name);
    if (!found) {
      if (!optional) missing.push(`${name} (from ${path.relative(src, fromDir) || '.'})`);
      return;
    }
    const rel = path.relative(src, found);
    if (fs.lstatSync(found).isSymbolicLink()) {
      // A workspace project (@mapi/*): the link goes in; its dependencies are walked from the project.
      if (links.has(rel)) return;
      links.add(rel);
      const target = fs.realpathSync(found);
      queue.push([target, readJson(path.join(target, 'package.json')), true]);
      return;
    }
    if (keep.has(rel)) return;
    keep.add(rel);
    queue.push([found, readJson(path.join(found, 'package.json')), false]);
  };
  // Every workspace link (node_modules/@mapi/* → apps/*, libs/*): the projects import each other by
  // them without listing each other in package.json.
  const top = path.join(src, 'node_modules');
  for (const name of fs.readdirSync(top)) {
    const names = name.startsWith('@') ? fs.readdirSync(path.join(top, name)).map((n) => `${name}/${n}`) : [name];
    for (const n of names) {
      if (
        fs.lstatSync(path.join(top, n)).isSymbolicLink() &&
        !path.relative(src, fs.realpathSync(path.join(top, n))).includes('node_modules')
      ) {
        visit(src, n, false);
      }
    }
  }
  const root = readJson(path.join(src, 'package.json'));
  queue.push([src, root, true]);
  for (const project of projects(src)) queue.push([path.join(src, project), readJson(path.join(src, project, 'package.json')), true]);
  while (queue.length > 0) {
    const [dir, pkg] = queue.shift();
    const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
    for (const name of wants(pkg)) visit(dir, name, optional.has(name));
    const peerMeta = pkg.peerDependenciesMeta ?? {};
    for (const name of Object.keys(pkg.peerDependencies ?? {})) {
      // A peer resolves from where the package sits; an optional peer only when installed.
      visit(path.dirname(dir), name, true);
      if (!peerMeta[name]?.optional && !NOT_RUNTIME[name] && !resolvePackage(src, dir, name)) {
        missing.push(`${name} (peer of ${pkg.name})`);
      }
    }
  }
  return { keep: [...keep].sort(), links: [...links].sort(), missing };
}

/**
 * Hard-links a package's files (not its nested node_modules, not .bin), dropping DROP_FILE and
 * DROP_IN_PACKAGE (whose test sees folders, without a trailing slash, as well as files).
 */
function linkPackage(from, to) {
  linkTree(from, to, dropInPackage(readJson(path.join(from, 'package.json')).name), '');
}

function linkTree(from, to, drop, inside) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, entry.name);
    const b = path.join(to, entry.name);
    const rel = inside ? `${inside}/${entry.name}` : entry.name;
    if (drop?.(rel)) continue;
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === '.bin') continue;
      linkTree(a, b, drop, rel);
    } else if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(a), b);
    } else if (entry.isFile() && (!DROP_FILE.test(entry.name) || entry.name === 'package.json')) {
      try {
        fs.linkSync(a, b);
      } catch {
        fs.copyFileSync(a, b); // another file system
      }
    }
  }
}

function assembleDeps(src, out) {
  const deps = path.join(out, 'deps');
  fs.rmSync(deps, { recursive: true, force: true });
  const { keep, links, missing } = productionClosure(src);
  if (missing.length > 0) throw new Error(`dependencies not installed: ${missing.join(', ')}`);
  for (const rel of keep) linkPackage(path.join(src, rel), path.join(deps, rel));
  for (const rel of links) {
    fs.mkdirSync(path.dirname(path.join(deps, rel)), { recursive: true });
    fs.symlinkSync(fs.readlinkSync(path.join(src, rel)), path.join(deps, rel));
  }
  fs.writeFileSync(path.join(deps, 'sbom.cdx.json'), `${JSON.stringify(sbom(src, keep), null, 1)}\n`);
  fs.writeFileSync(path.join(out, 'deps.hash'), depsHash(src) + '\n');
  return keep.length;
}

/**
 * A CycloneDX 1.5 SBOM of the packages kept (one component per name and version), for the image's
 * /app/sbom.cdx.json. No timestamp: the same tree gives the same file (and the same cached layer).
 */
function sbom(src, keep) {
  const root = readJson(path.join(src, 'package.json'));
  const components = new Map();
  for (const rel of keep) {
    const pkg = readJson(path.join(src, rel, 'package.json'));
    const ref = `pkg:npm/${pkg.name.replace(/^@/, '%40')}@${pkg.version}`;
    if (components.has(ref)) continue;
    const license = typeof pkg.license === 'string' ? pkg.license : pkg.license?.type;
    components.set(ref, {
      type: 'library',
      'bom-ref': ref,
      name: pkg.name,
      version: pkg.version,
      purl: ref,
      ...(license ? { licenses: [{ expression: license }] } : {}),
    });
  }
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    version: 1,
    metadata: { component: { type: 'application', name: root.name, version: root.version } },
    components: [...components.values()].sort((a, b) => a['bom-ref'].localeCompare(b['bom-ref'])),
  };
}

/** What the deps part is made from: the lock file, every package.json of the workspace, this script. */
function depsHash(src) {
  const h = crypto.createHash('sha256');
  for (const file of ['package-lock.json', 'package.json', ...projects(src).map((p) => `${p}/package.json`)]) {
    h.update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(src, file)))
      .update('\0');
  }
  h.update(fs.readFileSync(__filename));
  return h.digest('hex').slice(0, 16);
}

function main(argv) {
  const [src, out, flag] = argv;
  if (!src || !out) {
    console.error('usage: node scripts/image-tree.js <src> <out> [--app-only|--deps-only] | <src> --deps-hash');
    return 2;
  }
  if (out === '--deps-hash') {
    console.log(depsHash(src));
    return 0;
  }
  if (flag !== '--deps-only') assembleApp(src, out);
  if (flag !== '--app-only') {
    const n = assembleDeps(src, out);
    console.error(`image-tree: ${n} production packages`);
  }
  return 0;
}

module.exports = { productionClosure, depsHash, linkPackage, dropInPackage, NOT_RUNTIME, DROP_FILE, DROP_IN_PACKAGE, PDF_PARSE_PDFJS };
if (require.main === module) process.exitCode = main(process.argv.slice(2));
