/**
 * Checks docs/spec/coverage.md (spec sections 3, 4, 5, 8 and 9): every rule row names at least one test (`file` › `test name`) or says
 * `deviation: why`, and every named test still exists. Test names are read from the files' syntax tree
 * (the first string argument of it / test / describe, including it.each and test.describe), so a
 * renamed or deleted test fails `npm run lint`.
 *
 * Usage: tsx scripts/check-coverage.ts [path/to/coverage.md]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_FUNCTIONS = new Set(['it', 'test', 'describe']);
const REQUIRED_SECTIONS = ['3', '4', '5', '8', '9'];

/** Names of every it/test/describe block in a test file (template names as written, e.g. `%s is background`). */
function testNames(source: string, fileName: string): Set<string> {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  const rootName = (e: ts.Expression): string | null => {
    if (ts.isIdentifier(e)) return e.text;
    if (ts.isPropertyAccessExpression(e)) return rootName(e.expression);
    if (ts.isCallExpression(e)) return rootName(e.expression);
    return null;
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const first = node.arguments[0];
      const name = rootName(node.expression);
      if (name && TEST_FUNCTIONS.has(name) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) names.add(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return names;
}

interface Row {
  line: number;
  rule: string;
  proofs: { file: string; name: string }[];
  deviation: string | null;
}

/** Table rows whose first cell is a rule number (`4.1`, `9.12`...). */
function parseTable(markdown: string): Row[] {
  const rows: Row[] = [];
  markdown.split('\n').forEach((text, i) => {
    const cells = text.split('|').map((c) => c.trim());
    if (cells.length < 5 || !/^\d+\.\d+$/.test(cells[1] ?? '')) return;
    const proofCell = cells.slice(3, -1).join('|');
    const proofs = [...proofCell.matchAll(/`([^`]+)`\s*›\s*`([^`]+)`/g)].map((m) => ({ file: m[1]!, name: m[2]! }));
    const dev = /deviation:\s*(.+)$/i.exec(proofCell);
    rows.push({ line: i + 1, rule: cells[1]!, proofs, deviation: dev ? dev[1]!.trim() : null });
  });
  return rows;
}

function main(): void {
  const doc = resolve(root, process.argv[2] ?? 'docs/spec/coverage.md');
  const rows = parseTable(readFileSync(doc, 'utf8'));
  const problems: string[] = [];
  const cache = new Map<string, Set<string> | null>();
  const seenRules = new Set<string>();
  for (const row of rows) {
    if (seenRules.has(row.rule)) problems.push(`line ${row.line}: rule ${row.rule} is listed twice`);
    seenRules.add(row.rule);
    if (!row.proofs.length && !row.deviation) problems.push(`line ${row.line}: rule ${row.rule} names no test and no deviation`);
    for (const p of row.proofs) {
      if (!cache.has(p.file)) {
        const path = join(root, p.file);
        cache.set(p.file, existsSync(path) ? testNames(readFileSync(path, 'utf8'), path) : null);
      }
      const names = cache.get(p.file);
      if (!names) problems.push(`line ${row.line}: rule ${row.rule}: ${p.file} does not exist`);
      else if (!names.has(p.name)) problems.push(`line ${row.line}: rule ${row.rule}: no test named "${p.name}" in ${p.file}`);
    }
  }
  if (!rows.length) problems.push(`${doc}: no rule rows found`);
  // The sections the map covers (spec 3, 4, 5, 8, 9): each must keep its rows.
  for (const section of REQUIRED_SECTIONS) if (!rows.some((r) => r.rule.startsWith(`${section}.`))) problems.push(`${doc}: no rows for spec section ${section}`);
  const deviations = rows.filter((r) => r.deviation).length;
  const covered = rows.filter((r) => r.proofs.length).length;
  if (problems.length) {
    console.error(`check-coverage: ${problems.length} problem(s) in ${doc}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`check-coverage: ${rows.length} rules, ${covered} with tests, ${deviations} with a deviation noted`);
}

main();
