import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

export interface ImportCycles {
  /** Files that import each other, type-only imports included: each cycle as the files in order. */
  files: string[][];
  /**
   * Folders (src/config, src/ab, ...) whose runtime imports reach each other: each group of
   * folders that import one another, sorted. Type-only imports are left out here (the floors
   * check, {@link findArrowsAgainstFloors}, counts them): a cycle is about behaviour.
   */
  folders: string[][];
}

/** One import from a file of one room (a folder of src, or a file directly under it) to another room. */
export interface Arrow {
  from: string;
  to: string;
  fromFile: string;
  toFile: string;
  typeOnly: boolean;
}

/** What the floors check found: arrows that do not run down, and rooms no floor lists. */
export interface FloorFindings {
  /** Arrows to a room on the same floor or on a higher one, type-only ones included. */
  notDown: Arrow[];
  /** Rooms on no floor: each must be given one. */
  unplaced: string[];
}

interface ImportGraph {
  cycles: string[][];
  /** Every room that holds a file. */
  rooms: Set<string>;
  arrows: Arrow[];
}

/** Read once per project and root: reading src takes seconds, and both checks need it. */
const graphs = new Map<string, Promise<ImportGraph>>();

function readImportGraph(projectDir: string, root: string): Promise<ImportGraph> {
  const key = `${projectDir}\0${root}`;
  if (!graphs.has(key)) graphs.set(key, cruiseImportGraph(projectDir, root));
  return graphs.get(key)!;
}

/**
 * The imports under `root` (a folder of a TypeScript project whose tsconfig.json is in
 * `projectDir`), read by dependency-cruiser from the code itself: file cycles, and every import
 * that crosses from one room to another.
 */
async function cruiseImportGraph(projectDir: string, root: string): Promise<ImportGraph> {
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
  const cycles = output.summary.violations.filter((v) => v.rule.name === 'no-circular').map((v) => [v.from, ...(v.cycle ?? []).map((step) => step.name)]);
  const arrows: Arrow[] = [];
  const rooms = new Set<string>();
  for (const module of output.modules) {
    if (!module.source.startsWith(`${root}/`)) continue;
    rooms.add(roomOf(module.source));
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith(`${root}/`)) continue;
      const from = roomOf(module.source);
      const to = roomOf(dependency.resolved);
      if (from !== to) arrows.push({ from, to, fromFile: module.source, toFile: dependency.resolved, typeOnly: dependency.dependencyTypes.includes('type-only') });
    }
  }
  return { cycles, rooms, arrows };
}

/** The import cycles under `root`, between files and between folders. */
export async function findImportCycles(projectDir: string, root: string): Promise<ImportCycles> {
  const { cycles, arrows } = await readImportGraph(projectDir, root);
  const edges = new Map<string, Set<string>>();
  for (const arrow of arrows) if (!arrow.typeOnly) edges.set(arrow.from, (edges.get(arrow.from) ?? new Set()).add(arrow.to));
  return { files: cycles, folders: stronglyConnected(edges).filter((group) => group.length > 1) };
}

/**
 * Checks the imports under `root` against `floors`, lowest first, each the rooms on it: a room
 * may import only rooms of lower floors, so no arrow runs sideways or back up. Type-only imports
 * count: a shape a lower floor takes from a higher one ties it to that floor as much as a call does.
 */
export async function findArrowsAgainstFloors(projectDir: string, root: string, floors: readonly (readonly string[])[]): Promise<FloorFindings> {
  const { rooms, arrows } = await readImportGraph(projectDir, root);
  const floorOf = new Map(floors.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));
  return {
    notDown: arrows.filter((arrow) => floorOf.has(arrow.from) && floorOf.has(arrow.to) && floorOf.get(arrow.to)! >= floorOf.get(arrow.from)!),
    unplaced: [...rooms].filter((room) => !floorOf.has(room)).sort(),
  };
}

/** `src/config/load.ts` -> `src/config`; a file directly under the root is its own room. */
function roomOf(file: string): string {
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
