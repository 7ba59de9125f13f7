import { describe, expect, it } from 'vitest';
import { runScripted } from '../../agent/__fixtures__/harness';
import { HookPipeline } from '../../hooks';
import { parseCacheConfig } from './cache-config';
import { createCacheModule } from './cache-module';
import { cacheReport } from './cache-stats';
import { createMemoryStatsStore } from './stats-store';

describe('cache module in the agent loop', () => {
  it('adds the key to every request the loop sends and records each one as prepared and observed', async () => {
    const config = parseCacheConfig({ mode: 'openai', namespace: 'loop' });
    const store = createMemoryStatsStore(config.namespace);
    const hooks = new HookPipeline();
    hooks.register(createCacheModule({ config, store }));
    const run = await runScripted([{ content: 'one' }], { hooks });
    expect(run.result.stopReason).toBe('stop');
    expect(run.model.sent[0]!.body.prompt_cache_key).toMatch(/^[0-9a-f]{64}$/);
    const stats = await store.read();
    expect(stats.totals).toMatchObject({ prepared: 1, observed: 1, unknown_usage: 1 });
    // The scripted response carries no usage: unknown, so the target cannot be judged.
    expect(cacheReport(stats, 0.99).target_met).toBeNull();
    expect(stats.records[0]).toMatchObject({ class: 'new', observed: true, input: null });
  });
});
