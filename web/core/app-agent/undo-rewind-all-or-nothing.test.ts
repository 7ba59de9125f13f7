// "Rewind to here" moves files and conversation together or not at all: when saving the shortened conversation fails
// after the files were put back, the files are put forward again and the error is reported.
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { createNodeCheckpointStore } from '../checkpoints/node-store';
import { startTurnCheckpoints } from '../checkpoints/recorder';
import { HarnessError } from '../contracts/errors';
import type { Message } from '../contracts/messages';
import type { SessionStore } from '../sessions';
import { createUndo } from './undo';

it('puts the files forward again when the conversation cannot be saved', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewind-'));
  await writeFile(join(dir, 'f.txt'), 'before\n');
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const checkpoints = createNodeCheckpointStore({ sessionsRoot: mkdtempSync(join(tmpdir(), 'rewind-s-')) });
  const turn = await startTurnCheckpoints({ store: checkpoints, session: 's', turnId: 'turn-1' });
  await turn.fsFor({ id: 'c1', name: 'write', step: 1 }, fs).writeText('f.txt', 'after\n');
  const messages: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'change it', _turn: 'turn-1' },
    { role: 'assistant', content: 'done' },
  ];
  const info = { id: 's', workspaceId: 'w', title: 't', createdAt: 0, updatedAt: 0, checkpointSeq: 2 };
  const sessions = {
    load: async () => ({ info, messages }),
    commit: async () => {
      throw new HarnessError('E_SESSION_CONFLICT', 'Another writer committed first.');
    },
  } as unknown as SessionStore;
  const undo = createUndo({ checkpoints, sessions, fs: () => fs });
  await expect(undo.rewind('s', 1, 'both')).rejects.toMatchObject({ code: 'E_SESSION_CONFLICT' });
  expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('after\n');
  // Files only needs no save of the conversation: it goes through.
  await undo.rewind('s', 1, 'files');
  expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('before\n');
});
