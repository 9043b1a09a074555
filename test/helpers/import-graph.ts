import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

export interface ImportCycles {
  /** Files that import each other, type-only imports included: each cycle as the files in order. */
  files: string[][];
  /**
   * Folders (src/config, src/ab, ...) whose runtime imports reach each other: each group of
   * folders that import one another, sorted. Type-only imports are left out: they vanish from the
   * compiled code and describe shapes, not behaviour.
   */
  folders: string[][];
}

/**
 * The import cycles under `root` (a folder of a TypeScript project whose tsconfig.json is in
 * `projectDir`), found by dependency-cruiser from the code itself.
 */
export async function findImportCycles(projectDir: string, root: string): Promise<ImportCycles> {
  const cwd = process.cwd();
  process.chdir(projectDir);
  let output: ICruiseResult;
  try {
    const result = await cruise(
      [root],
      {
        ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
        validate: true,
        tsPreCompilationDeps: true,
        doNotFollow: { path: 'node_modules' },
      },
      {},
      { tsConfig: { fileName: path.join(projectDir, 'tsconfig.json') } },
    );
    output = result.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
  const files = output.summary.violations.filter((v) => v.rule.name === 'no-circular').map((v) => [v.from, ...(v.cycle ?? []).map((step) => step.name)]);
  const edges = new Map<string, Set<string>>();
  for (const module of output.modules) {
    if (!module.source.startsWith(`${root}/`)) continue;
    const from = folderOf(module.source);
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith(`${root}/`) || dependency.dependencyTypes.includes('type-only')) continue;
      const to = folderOf(dependency.resolved);
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return { files, folders: stronglyConnected(edges).filter((group) => group.length > 1) };
}

/** `src/config/load.ts` -> `src/config`; a file directly under the root is its own node. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : file;
}

/** Tarjan's strongly connected components, each sorted. */
function stronglyConnected(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return groups;
}
