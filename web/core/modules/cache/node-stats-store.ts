// Node StatsStore: `<state root>/<stats>` (cache.json `stats`, relative, checked), changed under the
// registry-file lock and replaced atomically (plugin-host json-file-store). A file that is not a stats document is
// refused and never overwritten. Node-only: exported from ./node.ts.
import { join } from 'node:path';
import { readJsonFile, updateJsonFile } from '../../../../plugin-host/fs/node';
import { checkStatsPath } from './cache-config';
import { parseStats } from './cache-stats';
import { corruptStats, type StatsStore } from './stats-store';

export function createNodeStatsStore(options: {
  stateRoot: string;
  stats: string;
  namespace: string;
  lockTimeoutMs?: number;
}): StatsStore {
  const file = join(options.stateRoot, ...checkStatsPath(options.stats).split('/'));
  const fileOptions = {
    maxBytes: 8 * 1024 * 1024,
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
  };
  const load = (value: unknown) => {
    const s = parseStats(value, options.namespace);
    if (!s) throw corruptStats(file);
    return s;
  };
  return {
    async read() {
      return load(await readJsonFile(file, fileOptions));
    },
    update(change) {
      return updateJsonFile(
        file,
        (current) => {
          const s = load(current);
          change(s);
          return { value: s, result: s };
        },
        fileOptions,
      );
    },
  };
}
