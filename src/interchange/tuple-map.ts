/**
 * A map keyed by a tuple of strings, held as nested maps. The import keys every value it reads
 * by its series and by its direction; joining the parts into one string per value (suite,
 * machine, environment, a workload name of about 70 characters, a 64-character version, the
 * metric) cost more than validating the value did (bench/import.ts). Nested, each part is hashed
 * once per string, and no key string is built.
 *
 * @module
 */

type Level = Map<string, unknown>;

export class TupleMap<V> {
  private readonly root: Level = new Map();
  private count = 0;
  private depth = 0;

  /** Distinct keys set so far. */
  get size(): number {
    return this.count;
  }

  /** Sets `value` at `key`; every key given to one map has the same length. */
  set(key: readonly string[], value: V): void {
    this.depth = key.length;
    let level = this.root;
    for (let i = 0; i < key.length - 1; i++) {
      let next = level.get(key[i]!) as Level | undefined;
      if (!next) level.set(key[i]!, (next = new Map()));
      level = next;
    }
    const last = key[key.length - 1]!;
    if (!level.has(last)) this.count++;
    level.set(last, value);
  }

  /** The values, grouped by their keys' first parts. */
  values(): V[] {
    let levels: Level[] = [this.root];
    for (let i = 1; i < this.depth; i++) levels = levels.flatMap((level) => [...level.values()] as Level[]);
    return levels.flatMap((level) => [...level.values()] as V[]);
  }
}
