/** A StoragePort in memory; `snapshot()`/`restore` stand for what survives an app restart. */
import type { StoragePort } from '../sync/ports';

export function memoryStorage(initial?: Map<string, string>): StoragePort & { map: Map<string, string> } {
  const map = initial ?? new Map<string, string>();
  return {
    map,
    getItem: async (k) => map.get(k) ?? null,
    setItem: async (k, v) => void map.set(k, v),
    removeItem: async (k) => void map.delete(k),
    getAllKeys: async () => [...map.keys()],
  };
}
