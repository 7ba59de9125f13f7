// The page side of e2e/search-opfs.bench.ts: starts the bench Worker (/worker.js, search-opfs-worker.ts bundled)
// and hands its comlink proxy to the test, since the agent, and so `search`, runs in a dedicated Worker.
import { wrap } from 'comlink';
import type { SearchBenchApi } from './search-opfs-worker';

(globalThis as unknown as { searchBench: unknown }).searchBench = wrap<SearchBenchApi>(
  new Worker('/worker.js', { type: 'module' }),
);
