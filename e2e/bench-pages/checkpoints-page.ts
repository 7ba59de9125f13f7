// The page side of e2e/checkpoints-in-the-app.bench.ts: starts the bench Worker (/worker.js, checkpoints-worker.ts
// bundled) and hands its comlink proxy to the test, since the agent, and so every write it makes, runs in a Worker.
import { wrap } from 'comlink';
import type { CheckpointsBenchApi } from './checkpoints-worker';

(globalThis as unknown as { checkpointsBench: unknown }).checkpointsBench = wrap<CheckpointsBenchApi>(
  new Worker('/worker.js', { type: 'module' }),
);
