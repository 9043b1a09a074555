import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findArrowsAgainstFloors, findImportCycles } from '../helpers/import-graph.js';
import { floors } from './floors.js';
import { tempDir } from '../helpers/temp-dir.js';

const projectDir = fileURLToPath(new URL('../../', import.meta.url));

describe('import cycles', () => {
  it('src has none, between files or between folders', async () => {
    const cycles = await findImportCycles(projectDir, 'src');
    expect(cycles.files).toEqual([]);
    expect(cycles.folders).toEqual([]);
  });

  it('every room of src is on a floor, and every import of src (type-only too) runs down a floor', async () => {
    const findings = await findArrowsAgainstFloors(projectDir, 'src', floors);
    expect(findings.unplaced, 'rooms on no floor: add each to test/architecture/floors.ts').toEqual([]);
    expect(findings.notDown.map((arrow) => `${arrow.fromFile} -> ${arrow.toFile}${arrow.typeOnly ? ' (type-only)' : ''}`)).toEqual([]);
  });

  describe('the check itself, on a throw-away project', () => {
    const dir = tempDir('nb-cycles-');
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
    // Files: loop/a -> loop/b -> loop/a (one folder). Folders: config/schema -> ab/section -> config/units (no file cycle), plus a type-only way back that does not count.
    write('src/loop/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    write('src/loop/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    write('src/config/schema.ts', "import { section } from '../ab/section.js';\nexport const schema = section;\n");
    write('src/config/units.ts', 'export const unit = 1;\n');
    write('src/ab/section.ts', "import { unit } from '../config/units.js';\nexport const section = unit;\n");
    write('src/report/page.ts', "import type { Shape } from '../history/rows.js';\nexport const page = (shape: Shape) => shape;\n");
    write('src/history/rows.ts', "import type { page } from '../report/page.js';\nexport type Shape = Parameters<typeof page>[0] | number;\n");

    it('finds a cycle between files and one between folders, and ignores a type-only loop of folders', async () => {
      const cycles = await findImportCycles(dir, 'src');
      expect(cycles.files.map((cycle) => [...cycle].sort()[0])).toContain('src/loop/a.ts');
      expect(cycles.folders).toEqual([['src/ab', 'src/config']]);
    });

    it('finds the type-only arrow back up a floor, the sideways one, and the room on no floor', async () => {
      const findings = await findArrowsAgainstFloors(dir, 'src', [['src/config'], ['src/history', 'src/ab'], ['src/report']]);
      expect(findings.notDown.map(({ fromFile, toFile, typeOnly }) => ({ fromFile, toFile, typeOnly }))).toEqual(
        expect.arrayContaining([
          { fromFile: 'src/history/rows.ts', toFile: 'src/report/page.ts', typeOnly: true },
          { fromFile: 'src/config/schema.ts', toFile: 'src/ab/section.ts', typeOnly: false },
        ]),
      );
      expect(findings.notDown).toHaveLength(2);
      expect(findings.unplaced).toEqual(['src/loop']);
    });
  });
});
