import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { protectWrites } from '../fs';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints } from './recorder';

const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]!; };
for (const size of [1 << 20, 400]) it('prof ' + size, async () => {
  const fs = protectWrites(await createNodeWorkspaceFs({ root: mkdtempSync(join(tmpdir(), 'p-')), access: 'read-write', blockingCalls: true }), { allowGitWrites: false });
  const store = createNodeCheckpointStore({ sessionsRoot: mkdtempSync(join(tmpdir(), 'ps-')) });
  const data = (n: number) => { const o = new Uint8Array(size); o.fill(n & 0xff); o[0] = n; return o; };
  const tot: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < 60; i++) {
    const turn = await startTurnCheckpoints({ store, session: 's' });
    let d = data(i);
    let t = performance.now();
    await fs.writeBytes('g.bin', d);
    plain.push(performance.now() - t);
    d = data(i);
    t = performance.now();
    await turn.fsFor({ id: 'c', name: 'write', step: 1 }, fs).writeBytes('f.bin', d);
    tot.push(performance.now() - t);
  }
  console.log(size, 'recorded', med(tot).toFixed(2), 'plain', med(plain).toFixed(2), 'ratio', (med(tot) / med(plain)).toFixed(2));
});
