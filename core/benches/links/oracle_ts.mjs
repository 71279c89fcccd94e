#!/usr/bin/env node
// Gold answers for TypeScript / JavaScript queries, from the TypeScript compiler API.
//
//   node oracle_ts.mjs --root REPO [--typescript DIR/node_modules/typescript] QUERIES.jsonl -o GOLD.jsonl
//
// One Program over the project: REPO/tsconfig.json when there is one (plus any queried
// file it leaves out), else every .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs file under REPO
// (node_modules excluded) with allowJs. Each query (README.md) is asked at the occurrence
// of its name on its line that is an identifier node and fits it best (as fit.py: its
// qual — `a.foo` for qual "a", a bare `foo` for none — and its kind — for a `call`,
// followed by `(` or `<`), the first one among equals; when the line has none, the
// next lines, up to LOOKAHEAD).
// The answer: checker.getSymbolAtLocation, aliases followed to the end
// (checker.getAliasedSymbol: imports, `export { x } from`, `export default x`,
// `import x = require()`), then the symbol's declarations: a declaration in a project file
// → its file and the line of its name; in a lib / node_modules / outside REPO → null; no
// symbol → "unknown". Several declarations in the project (overloads, merged
// declarations): the first is `target`, the rest `alts`.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const LOOKAHEAD = 8;
const EXTS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

function parseArgs(argv) {
  const a = { queries: null, root: null, out: null, typescript: null, tsconfig: null };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === "--root") a.root = argv[++i];
    else if (v === "-o" || v === "--out") a.out = argv[++i];
    else if (v === "--typescript") a.typescript = argv[++i];
    else if (v === "--tsconfig") a.tsconfig = argv[++i];
    else if (v === "-h" || v === "--help") {
      console.log("usage: oracle_ts.mjs --root REPO [--typescript PATH] [--tsconfig FILE] QUERIES.jsonl -o GOLD.jsonl");
      process.exit(0);
    } else a.queries = v;
  }
  if (!a.queries || !a.root || !a.out) {
    console.error("usage: oracle_ts.mjs --root REPO [--typescript PATH] [--tsconfig FILE] QUERIES.jsonl -o GOLD.jsonl");
    process.exit(2);
  }
  return a;
}

const args = parseArgs(process.argv.slice(2));
const require = createRequire(import.meta.url);
const ts = require(args.typescript ? path.resolve(args.typescript) : "typescript");
const root = fs.realpathSync(path.resolve(args.root));

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (EXTS.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
}

// ---- the queries
const queries = fs
  .readFileSync(args.queries, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l))
  .filter((q) => EXTS.some((x) => q.file.endsWith(x)) && !q.file.endsWith(".d.ts"));

// ---- the program
let rootNames;
let options;
const configPath = args.tsconfig
  ? path.resolve(args.tsconfig)
  : fs.existsSync(path.join(root, "tsconfig.json"))
    ? path.join(root, "tsconfig.json")
    : null;
if (configPath) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => console.error(ts.flattenDiagnosticMessageText(d.messageText, "\n")) };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { noEmit: true }, host);
  rootNames = parsed.fileNames;
  options = { ...parsed.options, noEmit: true, allowJs: parsed.options.allowJs ?? true, skipLibCheck: true };
} else {
  rootNames = walk(root, []);
  options = {
    allowJs: true,
    checkJs: false,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve,
    esModuleInterop: true,
    resolveJsonModule: true,
    experimentalDecorators: true,
  };
}
const have = new Set(rootNames.map((f) => path.resolve(f)));
for (const q of queries) {
  const abs = path.join(root, q.file);
  if (!have.has(abs) && fs.existsSync(abs)) {
    rootNames.push(abs);
    have.add(abs);
  }
}
const t0 = Date.now();
const program = ts.createProgram(rootNames, options);
const checker = program.getTypeChecker();

function relInProject(sf) {
  if (program.isSourceFileDefaultLibrary(sf) || program.isSourceFileFromExternalLibrary(sf)) return null;
  let abs = path.resolve(sf.fileName);
  try {
    abs = fs.realpathSync(abs);
  } catch {}
  const rel = path.relative(root, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep).includes("node_modules")) return null;
  return rel.split(path.sep).join("/");
}

// The deepest node whose span holds `pos` (JSDoc skipped).
function nodeAt(sf, pos) {
  let node = sf;
  for (;;) {
    let next;
    ts.forEachChild(node, (c) => {
      if (next === undefined && c.getStart(sf) <= pos && pos < c.getEnd()) next = c;
    });
    if (!next) return node;
    node = next;
  }
}

// How well the occurrence of `name` at `col` of `text` fits the query (fit.py): 4 when
// written as its qual says, + 2 for a member where the qual is a path, + 1 when as its
// kind says.
const SELF_NAMES = new Set(["self", "this", "Self", "cls"]);
function qualFits(text, col, name, q) {
  if (!("qual" in q)) return true;
  const qual = q.qual;
  const before = text.slice(0, col).trimEnd();
  const sep = ["::", "->", "."].find((s) => before.endsWith(s));
  if (qual === null) return sep === undefined;
  if (qual === "?") return sep !== undefined;
  if (qual === "!") return /^\s*!/.test(text.slice(col + name.length));
  if (sep === undefined) return false;
  // the identifier before the separator (`a?.foo`, `a!.foo`: `a`)
  const m = /[A-Za-z0-9_$]+[?!]*$/.exec(before.slice(0, -sep.length).trimEnd());
  if (!m) return false;
  const prev = m[0].replace(/[?!]+$/, "");
  const last = qual.split(".").pop();
  return prev === last || (!qual.includes(".") && SELF_NAMES.has(prev));
}
function kindFits(text, col, name, q) {
  const after = text.slice(col + name.length);
  // `foo(`, `foo<T>(` (a `<` alone, as type arguments may hold parentheses), `foo?.(`.
  if (q.kind === "call") return /^\s*(?:\?\.)?\s*[(<]/.test(after);
  // a type, not a call nor the key of `{Foo: Foo}`
  if (q.kind === "type_ref") return !/^\s*\(/.test(after) && !/^\s*:(?!:)/.test(after);
  return true;
}
// A path qual (a receiver's class need not be what is written) meets a member occurrence.
function memberFits(text, col, q) {
  if (q.qual === undefined || q.qual === null || q.qual === "?" || q.qual === "!") return false;
  const before = text.slice(0, col).trimEnd();
  return ["::", "->", "."].some((s) => before.endsWith(s));
}
function fit(text, col, name, q) {
  return 4 * qualFits(text, col, name, q) + 2 * memberFits(text, col, q) + kindFits(text, col, name, q);
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// The identifier node the query means, and where it was found.
function findIdentifier(sf, q) {
  const lines = sf.getLineStarts();
  const word = new RegExp(`(?<![A-Za-z0-9_$])${escapeRe(q.name)}(?![A-Za-z0-9_$])`, "g");
  const text = sf.getFullText();
  for (let ln = q.line; ln <= Math.min(q.line + LOOKAHEAD, lines.length); ln++) {
    const start = lines[ln - 1];
    const end = ln < lines.length ? lines[ln] : text.length;
    const lineText = text.slice(start, end);
    const hits = [...lineText.matchAll(word)].map((m) => m.index);
    if (!hits.length) continue;
    // Best fit first, then left to right (sort is stable).
    const order = hits
      .map((h) => [fit(lineText, h, q.name, q), h])
      .sort((a, b) => b[0] - a[0])
      .map(([, h]) => h);
    // Identifiers only (not inside strings or comments); the name a declaration declares
    // there (`class Foo`, `function foo`) only when nothing else is left.
    let fallback = null;
    for (const h of order) {
      const node = nodeAt(sf, start + h);
      if (!(ts.isIdentifier(node) || ts.isPrivateIdentifier(node))) continue;
      if (isDeclaredName(node)) {
        fallback ??= { node, line: ln, col: h };
        continue;
      }
      return { node, line: ln, col: h };
    }
    if (fallback) return fallback;
  }
  return null;
}

// The name of a declaration (not an import / export specifier: those refer).
function isDeclaredName(node) {
  const p = node.parent;
  if (!p || p.name !== node) return false;
  return !(
    ts.isImportSpecifier(p) ||
    ts.isImportClause(p) ||
    ts.isNamespaceImport(p) ||
    ts.isExportSpecifier(p) ||
    ts.isShorthandPropertyAssignment(p) ||
    ts.isPropertyAccessExpression(p)
  );
}

function declLine(decl) {
  const sf = decl.getSourceFile();
  if (ts.isSourceFile(decl)) return 1;
  const name = ts.getNameOfDeclaration(decl);
  const at = name ? name.getStart(sf) : decl.getStart(sf);
  return sf.getLineAndCharacterOfPosition(at).line + 1;
}

function answer(q) {
  const g = { lang: q.lang, file: q.file, line: q.line, name: q.name, kind: q.kind };
  if ("qual" in q) g.qual = q.qual;
  const sf = program.getSourceFile(path.join(root, q.file));
  if (!sf) return { ...g, target: "unknown", note: "not in the program" };
  const found = findIdentifier(sf, q);
  if (!found) return { ...g, target: "unknown", note: "no identifier on the line" };
  g.col = found.col;
  if (found.line !== q.line) g.note = `found on line ${found.line}`;
  let sym;
  try {
    const parent = found.node.parent;
    if (parent && ts.isShorthandPropertyAssignment(parent) && parent.name === found.node) {
      sym = checker.getShorthandAssignmentValueSymbol(parent);
    } else {
      sym = checker.getSymbolAtLocation(found.node);
    }
    // `new Foo()`/`Foo()` on a class: the class, as written. Aliases, to the end.
    let guard = 0;
    while (sym && sym.flags & ts.SymbolFlags.Alias && guard++ < 20) {
      const next = checker.getAliasedSymbol(sym);
      if (!next || next === sym || checker.isUnknownSymbol?.(next)) break;
      sym = next;
    }
  } catch (e) {
    return { ...g, target: "unknown", note: `checker: ${e}`.slice(0, 200) };
  }
  if (!sym) return { ...g, target: "unknown", note: "no symbol" };
  const decls = sym.declarations ?? [];
  if (!decls.length) return { ...g, target: "unknown", note: "symbol without declarations" };
  const targets = [];
  const seen = new Set();
  for (const d of decls) {
    const rel = relInProject(d.getSourceFile());
    if (rel === null) continue;
    const t = { file: rel, line: declLine(d) };
    const n = ts.getNameOfDeclaration(d);
    const declared = ts.isSourceFile(d) ? null : n && ts.isIdentifier(n) ? n.text : null;
    if (declared && declared !== q.name) t.name = declared;
    const key = `${t.file}:${t.line}`;
    if (!seen.has(key)) {
      seen.add(key);
      targets.push(t);
    }
  }
  if (!targets.length) return { ...g, target: null };
  g.target = targets[0];
  if (targets.length > 1) g.alts = targets.slice(1);
  return g;
}

const out = [];
let unknown = 0;
let external = 0;
for (const q of queries) {
  const g = answer(q);
  if (g.target === "unknown") unknown++;
  else if (g.target === null) external++;
  out.push(JSON.stringify(g));
}
fs.writeFileSync(args.out, out.length ? out.join("\n") + "\n" : "");
console.error(
  `ts oracle: ${out.length} answers (${unknown} unknown, ${external} external) in ${((Date.now() - t0) / 1000).toFixed(1)}s, ` +
    `${program.getSourceFiles().length} source files (${configPath ? path.relative(root, configPath) : "no tsconfig: every file, allowJs"}) -> ${args.out}`,
);
