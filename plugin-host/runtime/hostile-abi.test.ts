// Hostile modules at the ABI level, each run in a real worker_threads worker: the invocation aborts with the exact
// E_RUN_* code and the worker is gone afterwards.
import { describe, expect, it } from 'vitest';
import { hostileWasm, type HostileName } from '../fixtures/wat/wat';
import { pluginFrom, run } from './test-kit';

const cases: [HostileName, string][] = [
  ['trap', 'E_RUN_TRAP'],
  ['recursion', 'E_RUN_STACK_OVERFLOW'],
  ['out-of-bounds', 'E_RUN_OUT_OF_BOUNDS'],
  ['alloc-out-of-bounds', 'E_RUN_OUT_OF_BOUNDS'],
  ['frame-too-large', 'E_RUN_FRAME_TOO_LARGE'],
  ['output-too-large', 'E_RUN_OUTPUT_TOO_LARGE'],
  ['bad-utf8', 'E_RUN_BAD_UTF8'],
  ['abi-version-2', 'E_RUN_ABI_VERSION'],
  ['imports-host', 'E_RUN_IMPORTS'],
];

describe('hostile modules abort with a stable code', () => {
  for (const [name, code] of cases) {
    it(`${name} → ${code}`, async () => {
      const result = await run(await pluginFrom(await hostileWasm(name)));
      expect(result.status).toBe('aborted');
      if (result.status === 'aborted') expect(result.error.code).toBe(code);
      expect(result.sideEffects).toBe(false);
    });
  }

  it('stops an infinite loop at the budget (E_RUN_TIMEOUT) and terminates the worker', async () => {
    const started = performance.now();
    const result = await run(await pluginFrom(await hostileWasm('infinite-loop')), { timeoutMs: 300 });
    expect(result.status).toBe('aborted');
    if (result.status === 'aborted') expect(result.error.code).toBe('E_RUN_TIMEOUT');
    // The result resolves only after the worker has exited, so reaching here proves termination.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('lets memory.grow past the declared maximum return -1 without failing the invocation', async () => {
    const result = await run(await pluginFrom(await hostileWasm('grow-past-max')));
    expect(result).toMatchObject({ status: 'done', output: 'grow=-1' });
  });

  it('refuses bytes that are not WebAssembly (E_RUN_COMPILE)', async () => {
    const result = await run(await pluginFrom(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9])));
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_COMPILE' } });
  });

  it('refuses a module without the harness exports (E_RUN_ABI_EXPORTS)', async () => {
    const result = await run(await pluginFrom(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])));
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_ABI_EXPORTS' } });
  });
});
