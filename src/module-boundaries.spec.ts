import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Dependency direction, enforced (docs/architecture.md, "Dependency direction"): the folders of
 * `src/modules` import each other one way only (no cycle, however long), and `common/`,
 * `config/`, `database/` and `queue/` never import from `modules/`.
 */
const SRC = __dirname;
const INFRASTRUCTURE = ['common', 'config', 'database', 'queue'];

/**
 * Cohesion (issue 32, point 8; docs/decisions.md): account login depends only on what a login
 * needs (the records a logged-in visitor reads are visitor-records', which depends on it), and the
 * widget session on few features (its chat is conversations', its tickets tickets').
 */
const ACCOUNT_LOGIN_NEEDS = ['audit', 'data-lookup', 'mail', 'organizations', 'sites', 'visitors'];
const WIDGET_AT_MOST = 8;
const WIDGET_GAVE_AWAY = ['attachments', 'messages', 'organizations', 'tickets'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** `modules/<feature>` for a feature's file, else the top-level folder under src/. */
function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts.length === 1) return '.';
  return parts[0] === 'modules' ? `modules/${parts[1]}` : parts[0];
}

/** Relative specifiers of `import ... from`, `export ... from`, `import('...')` and `require`. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\sfrom\s+['"](\.[^'"]+)['"]/g,
    /\bimport\s+['"](\.[^'"]+)['"]/g,
    /\b(?:import|require)\(\s*['"](\.[^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns)
    for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** Folder -> folder it imports -> the importing files (for the failure message). */
function folderGraph(): Map<string, Map<string, Set<string>>> {
  const graph = new Map<string, Map<string, Set<string>>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const to = folderOf(path.resolve(path.dirname(file), specifier));
      if (to === from) continue;
      const targets = graph.get(from) ?? new Map<string, Set<string>>();
      graph.set(from, targets);
      const files = targets.get(to) ?? new Set<string>();
      targets.set(to, files);
      files.add(path.relative(SRC, file));
    }
  }
  return graph;
}

/** Every elementary cycle's edges would be too many; one cycle per strongly connected group. */
function cycles(graph: Map<string, Map<string, Set<string>>>): string[][] {
  const nodes = [...graph.keys()].filter((node) => node.startsWith('modules/'));
  const found: string[][] = [];
  const seen = new Set<string>();
  for (const start of nodes) {
    if (seen.has(start)) continue;
    // Depth-first search for a path back to start, inside modules/ only.
    const stack: { node: string; path: string[] }[] = [{ node: start, path: [start] }];
    const visited = new Set<string>();
    while (stack.length > 0) {
      const { node, path: trail } = stack.pop()!;
      for (const next of graph.get(node)?.keys() ?? []) {
        if (!next.startsWith('modules/')) continue;
        if (next === start) {
          found.push([...trail, start]);
          trail.forEach((member) => seen.add(member));
          stack.length = 0;
          break;
        }
        if (visited.has(next)) continue;
        visited.add(next);
        stack.push({ node: next, path: [...trail, next] });
      }
    }
  }
  return found;
}

/**
 * Records at each feature's edge (issue 32, point 7; docs/decisions.md): a method of another
 * feature's class that a feature calls declares its return type, and neither that type nor its
 * parameters name a `*Row` (a table's row, which stays in its feature). Found by reading, not by
 * type-checking: a file's imports of a class, the properties typed with it (constructor
 * injection) and the `.method(` calls on them. An exception would be named here (a row
 * answered or taken, or no declared return type, so the rule cannot tell); none is left. An entry
 * that no longer breaks the rule fails the test, so the list only shrinks.
 */
const ROWS_STILL_CROSSING: string[] = [];

/** Whether a type node names a `*Row` anywhere inside (`Promise<{ rows: XRow[] }>` too). */
function namesRow(node: ts.Node | undefined): boolean {
  if (!node) return false;
  if (ts.isTypeReferenceNode(node) && /Row$/.test(node.typeName.getText())) return true;
  return ts.forEachChild(node, (child) => (namesRow(child) ? true : undefined)) ?? false;
}

/** `feature/Class.method` of each method a feature calls on another feature's class, and why it breaks the rule. */
function rowsCrossing(): Map<string, string> {
  const found = new Map<string, string>();
  const parsed = new Map<string, ts.SourceFile>();
  const parse = (file: string) => {
    const known = parsed.get(file);
    if (known) return known;
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    parsed.set(file, source);
    return source;
  };
  for (const file of sourceFiles(path.join(SRC, 'modules'))) {
    const source = parse(file);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
        continue;
      const specifier = statement.moduleSpecifier.text;
      if (!specifier.startsWith('.')) continue;
      const target = `${path.resolve(path.dirname(file), specifier)}.ts`;
      const feature = folderOf(target);
      if (feature === folderOf(file) || !feature.startsWith('modules/')) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        const name = element.name.text;
        const declared = parse(target).statements.find(
          (node): node is ts.ClassDeclaration =>
            ts.isClassDeclaration(node) && node.name?.text === name,
        );
        if (!declared) continue;
        // The properties holding it (`private readonly sites: SitesService`), then the calls on them.
        const text = source.getFullText();
        const holders = [...text.matchAll(new RegExp(`(\\w+)\\s*:\\s*${name}\\b`, 'g'))].map(
          (m) => m[1],
        );
        for (const holder of new Set(holders)) {
          for (const call of text.matchAll(new RegExp(`\\b${holder}\\.(\\w+)\\(`, 'g'))) {
            const method = declared.members.find(
              (member): member is ts.MethodDeclaration =>
                ts.isMethodDeclaration(member) && member.name.getText() === call[1],
            );
            if (!method) continue;
            const key = `${feature.slice('modules/'.length)}/${name}.${call[1]}`;
            if (!method.type) found.set(key, 'declares no return type');
            else if (namesRow(method.type) || method.parameters.some((p) => namesRow(p.type)))
              found.set(
                key,
                `names a *Row: ${method.getText().split('{')[0].replace(/\s+/g, ' ')}`,
              );
          }
        }
      }
    }
  }
  return found;
}

describe('module boundaries', () => {
  const graph = folderGraph();

  it('finds the import graph (the test reads what it claims to read)', () => {
    expect(graph.get('modules/widget')?.has('modules/sites')).toBe(true);
    expect(graph.get('modules/tickets')?.has('common')).toBe(true);
  });

  it('has no cycle between the folders of src/modules', () => {
    const described = cycles(graph).map((cycle) =>
      cycle
        .slice(1)
        .map((to, index) => {
          const from = cycle[index];
          const files = [...(graph.get(from)?.get(to) ?? [])].join(', ');
          return `${from} -> ${to} (${files})`;
        })
        .join('\n  '),
    );
    expect(described).toEqual([]);
  });

  it.each(INFRASTRUCTURE)('%s/ imports nothing from modules/', (folder) => {
    const reaching = [...(graph.get(folder) ?? new Map<string, Set<string>>())]
      .filter(([to]) => to.startsWith('modules/'))
      .map(([to, files]) => `${to} (${[...files].join(', ')})`);
    expect(reaching).toEqual([]);
  });

  /** The features (folders of src/modules) a feature's files import. */
  const featuresOf = (feature: string): string[] =>
    [...(graph.get(`modules/${feature}`)?.keys() ?? [])]
      .filter((to) => to.startsWith('modules/'))
      .map((to) => to.slice('modules/'.length))
      .sort();

  it('account-login imports only what a login needs', () => {
    expect(featuresOf('account-login').filter((f) => !ACCOUNT_LOGIN_NEEDS.includes(f))).toEqual([]);
    // The other way round is the right one: the records ask account login whose account it is.
    expect(featuresOf('visitor-records')).toContain('account-login');
  });

  it(`widget imports at most ${WIDGET_AT_MOST} features, and not those whose routes it gave away`, () => {
    const features = featuresOf('widget');
    expect(features.filter((f) => WIDGET_GAVE_AWAY.includes(f))).toEqual([]);
    expect(features.length).toBeLessThanOrEqual(WIDGET_AT_MOST);
  });

  it("answers another feature records, not its tables' rows (issue 32, point 7)", () => {
    const crossing = rowsCrossing();
    expect([...crossing].filter(([key]) => !ROWS_STILL_CROSSING.includes(key))).toEqual([]);
    // Mended ones leave the list.
    expect(ROWS_STILL_CROSSING.filter((key) => !crossing.has(key))).toEqual([]);
  });
});
