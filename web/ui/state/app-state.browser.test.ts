import { createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/contracts';
import { openHarnessDb } from '../../core/page';
import { createAppState } from './app-state';

describe('AppState.attempt', () => {
  it('shows a failed action with its stable code first, and a plain error as its message', async () => {
    const db = await openHarnessDb(`app-state-${Date.now()}`);
    await createRoot(async (dispose) => {
      const s = createAppState(db);
      expect(
        await s.attempt(() => Promise.reject(new HarnessError('E_FS_BUSY', 'The file is in use. Try again.'))),
      ).toBeUndefined();
      await s.attempt(() => Promise.reject(new Error('something odd')));
      expect(s.notices().map((n) => [n.kind, n.text])).toEqual([
        ['error', 'E_FS_BUSY: The file is in use. Try again.'],
        ['error', 'something odd'],
      ]);
      dispose();
    });
    db.close();
  });
});
