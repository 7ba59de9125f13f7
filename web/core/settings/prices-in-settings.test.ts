// The person's price table lives in global settings: strictly checked when set or imported (path in the message,
// nothing changed on a bad file), exported and imported with the other settings, never per workspace.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openHarnessDb, type HarnessDb } from '../storage';
import { PRICE_PRESETS, mergePrices, priceFor } from '../usage';
import { createWorkspaceRecord } from '../workspaces';
import { readGlobalSettings, updateGlobalSettings, updateWorkspaceSettings } from './store';
import { exportSettings, importSettings, serializeSettings } from './transfer';

let n = 0;
let db: HarnessDb;
const open = async () => (db = await openHarnessDb(`prices-test-${Date.now()}-${n++}`));
afterEach(() => db?.close());

const deepseek = PRICE_PRESETS.find((p) => p.provider === 'deepseek')!.table;

describe('prices in settings', () => {
  it('has no prices until the person picks a preset or sets one', async () => {
    await open();
    expect((await readGlobalSettings(db)).prices).toBeUndefined();
    await updateGlobalSettings(db, { prices: mergePrices(null, deepseek) });
    expect(priceFor((await readGlobalSettings(db)).prices, 'deepseek-chat')).toMatchObject({
      input: 0.56,
      cache_read: 0.07,
    });
  });

  it('refuses a bad table with E_SETTINGS_INVALID and the path inside it, and keeps the old one', async () => {
    await open();
    await updateGlobalSettings(db, { prices: deepseek });
    const bad = { as_of: '2026-12-02', prices: [{ model: 'm', input: 1, output: Number.NaN }] };
    await expect(updateGlobalSettings(db, { prices: bad })).rejects.toMatchObject({
      code: 'E_SETTINGS_INVALID',
      message: expect.stringMatching(/At global\.prices: prices\.0\.output: expected a number/),
    });
    expect((await readGlobalSettings(db)).prices).toEqual(deepseek);
    const w = await createWorkspaceRecord(db, { name: 'W', kind: 'opfs' });
    await expect(updateWorkspaceSettings(db, w.id, { prices: deepseek } as never)).rejects.toMatchObject({
      code: 'E_SETTINGS_INVALID',
    });
  });

  it('travels with an export and imports back; an import with a bad table changes nothing', async () => {
    await open();
    await updateGlobalSettings(db, { prices: deepseek, theme: 'dark' });
    const text = serializeSettings(await exportSettings(db));
    db.close();
    await open();
    await importSettings(db, text);
    expect((await readGlobalSettings(db)).prices).toEqual(deepseek);

    const doc = JSON.parse(text) as { global: { prices: { prices: Array<Record<string, unknown>> }; theme: string } };
    doc.global.theme = 'light';
    doc.global.prices.prices[1]!.cache_read = -0.07;
    await expect(importSettings(db, JSON.stringify(doc))).rejects.toMatchObject({
      code: 'E_SETTINGS_IMPORT_INVALID',
      message: expect.stringMatching(/At global\.prices: prices\.1\.cache_read/),
    });
    expect(await readGlobalSettings(db)).toMatchObject({ theme: 'dark', prices: deepseek });
  });
});
