// The IndexedDB session store in Chromium's real IndexedDB: the shared behaviour suite, and a page (an iframe)
// torn down while its commit of a large tool batch is in flight: after "reloading", the session loads either the
// previous checkpoint or the complete new one, never a partial batch, and no entry lies past the pointer.
import { describe, expect, it } from 'vitest';
import { openHarnessDb, type HarnessDb } from '../storage';
import { createIdbSessionStore } from './idb-store';
import { idbDamageCases } from './idb-damage-cases';
import { sessionStoreSuite } from './session-store-suite';

const dbs = new Map<string, HarnessDb>();
sessionStoreSuite('IndexedDB (Chromium)', {
  async store(workspace, key) {
    if (!dbs.has(key)) dbs.set(key, await openHarnessDb(`sessions-browser-${key}-${crypto.randomUUID()}`));
    return createIdbSessionStore(dbs.get(key)!, workspace);
  },
  async damageEntry(key, id, seq) {
    await dbs.get(key)!.put('session_entries', { sessionId: id, seq, entry: { kind: 'bogus' } });
  },
});

describe('IndexedDB session store when the page goes away', () => {
  it('loads the last complete checkpoint after the page is closed during a batch commit', async () => {
    const dbName = `sessions-close-${crypto.randomUUID()}`;
    const frame = document.createElement('iframe');
    const moduleUrl = new URL('./idb-store.ts', import.meta.url).href;
    const dbModuleUrl = new URL('../storage/index.ts', import.meta.url).href;
    frame.srcdoc = `<script type="module">
      const { createIdbSessionStore } = await import(${JSON.stringify(moduleUrl)});
      const { openHarnessDb } = await import(${JSON.stringify(dbModuleUrl)});
      const db = await openHarnessDb(${JSON.stringify(dbName)});
      const store = createIdbSessionStore(db, 'ws');
      const info = await store.create({ title: 't', id: 'victim' });
      const first = await store.commit('victim', [{ kind: 'message', message: { role: 'user', content: 'before' } }], info.checkpointSeq);
      const big = 'x'.repeat(20000);
      const entries = [{ kind: 'message', message: { role: 'assistant', content: null, tool_calls: Array.from({ length: 400 }, (_, i) => ({ id: 'c' + i, type: 'function', function: { name: 'read', arguments: '{}' } })) } }];
      for (let i = 0; i < 400; i++) entries.push({ kind: 'message', message: { role: 'tool', tool_call_id: 'c' + i, content: big } });
      store.commit('victim', entries, first.checkpointSeq).then(() => parent.postMessage('committed', '*'), () => parent.postMessage('failed', '*'));
      parent.postMessage('committing', '*');
    </script>`;
    const seen: string[] = [];
    const committing = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`iframe never started committing (saw ${seen.join(',')})`)),
        20_000,
      );
      window.addEventListener('message', (e) => {
        seen.push(String(e.data));
        if (e.data === 'committing') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    document.body.appendChild(frame);
    await committing;
    frame.remove();
    await new Promise((r) => setTimeout(r, 200));

    const db = await openHarnessDb(dbName);
    const store = createIdbSessionStore(db, 'ws');
    const loaded = await store.load('victim');
    const count = await db.count('session_entries', IDBKeyRange.bound(['victim', 0], ['victim', Infinity]));
    // Pointer 0 = the checkpoint before the batch; 401 = the whole batch (1 assistant + 400 tool results).
    expect([0, 401]).toContain(loaded.info.checkpointSeq);
    console.log(
      `page closed mid-commit: loaded checkpoint ${loaded.info.checkpointSeq} (${loaded.info.checkpointSeq === 0 ? 'batch discarded' : 'batch had committed'})`,
    );
    expect(count).toBe(loaded.info.checkpointSeq + 1);
    expect(loaded.messages[0]).toEqual({ role: 'user', content: 'before' });
    expect([1, 402]).toContain(loaded.messages.length);
    db.close();
  });
});

idbDamageCases('IndexedDB (Chromium)', () => openHarnessDb(`sessions-damage-${crypto.randomUUID()}`));
