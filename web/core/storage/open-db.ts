import { openDB, unwrap, type IDBPDatabase } from 'idb';
import { HarnessError } from '../contracts';
import { runMigrations } from './migrations';
import { DB_NAME, DB_VERSION, type HarnessDbSchema } from './schema';

export type HarnessDb = IDBPDatabase<HarnessDbSchema>;

/**
 * Opens (creating or upgrading) the app's database. A second tab holding an older version is asked to close
 * (its `blocking` handler closes the connection) so an update never waits forever.
 */
export async function openHarnessDb(name: string = DB_NAME): Promise<HarnessDb> {
  if (typeof indexedDB === 'undefined') {
    throw new HarnessError(
      'E_STORAGE_UNAVAILABLE',
      'This browser offers no IndexedDB here (private mode or disabled site data). Allow site data for this app and reload.',
    );
  }
  try {
    const db = await openDB<HarnessDbSchema>(name, DB_VERSION, {
      upgrade(database, oldVersion, newVersion, transaction) {
        runMigrations(unwrap(database), unwrap(transaction), oldVersion, newVersion ?? DB_VERSION);
      },
      blocking() {
        db.close();
      },
    });
    return db;
  } catch (error) {
    if (HarnessError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof DOMException && error.name === 'VersionError') {
      throw new HarnessError(
        'E_STORAGE_NEWER_VERSION',
        'Your data was written by a newer version of i. Reload the page to get the newest version of the app.',
        { reason },
      );
    }
    throw new HarnessError(
      'E_STORAGE_OPEN_FAILED',
      `The app's database could not be opened (${reason}). Reload the page; if it keeps failing, check the browser's site-data settings.`,
      { reason },
    );
  }
}
