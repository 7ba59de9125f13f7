// A tiny in-memory WorkspaceFs for loop tests (no path policy: tests use plain relative paths).
import type { WorkspaceFs } from '../../contracts/fs';

export function memoryFs(files: Record<string, string> = {}): WorkspaceFs & { files: Map<string, Uint8Array> } {
  const enc = new TextEncoder();
  const map = new Map<string, Uint8Array>(Object.entries(files).map(([k, v]) => [k, enc.encode(v)]));
  const missing = (path: string) => Object.assign(new Error(`not found: ${path}`), { code: 'E_FS_NOT_FOUND' });
  return {
    files: map,
    access: 'read-write',
    rootName: 'mem',
    async readBytes(path) {
      const b = map.get(path);
      if (!b) throw missing(path);
      return b;
    },
    async readText(path) {
      const b = map.get(path);
      if (!b) throw missing(path);
      return new TextDecoder().decode(b);
    },
    async writeBytes(path, data, options) {
      await options?.beforeCommit?.();
      map.set(path, data);
    },
    async writeText(path, text, options) {
      await options?.beforeCommit?.();
      map.set(path, enc.encode(text));
    },
    async list() {
      return [...map.entries()].map(([path, b]) => ({ path, name: path, directory: false, size: b.length }));
    },
    async stat(path) {
      const b = map.get(path);
      return b ? { path, directory: false, size: b.length } : null;
    },
    async remove(path) {
      map.delete(path);
    },
    async mkdir() {},
  };
}
