import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Dependency direction, enforced (docs/architecture.md, "Dependency direction"): the folders of
 * `src/modules` import each other one way only (no cycle, however long), and `common/`,
 * `config/`, `database/` and `queue/` never import from `modules/`.
 */
const SRC = __dirname;
const INFRASTRUCTURE = ['common', 'config', 'database', 'queue'];

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
});
