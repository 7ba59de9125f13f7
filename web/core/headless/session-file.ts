// `i --session FILE` (seed 000 §3: "核心 --session FILE 是宿主无关的存储入口，会话仍校验 workspace"): the whole
// session in one JSON file anywhere, for hosts that keep sessions themselves. The file names the workspace's UUID
// (the shared registry's, or --workspace-id), not a path, so a host that moves the project keeps its sessions;
// loading it for another workspace is refused (E_SESSION_WORKSPACE_MISMATCH, with the fix).
//   {"format": "i-session-file", "version": 1, "workspace_id": UUID, "workspace": "/last/real/path",
//    "title", "createdAt", "updatedAt", "checkpointSeq", "messages": [...]}
// Each checkpoint rewrites the file atomically (temp file, fsync, rename) under `FILE.lock`; a checkpoint whose
// sequence moved meanwhile (another i on the same file) is refused with E_SESSION_CONFLICT. Tool-result
// references last the run only (no content folder beside the file), and file changes are not checkpointed.
import { promises as fsp } from 'node:fs';
import { HarnessError } from '../contracts';
import { messageSchema } from '../hooks';
import type { Message } from '../contracts';
import {
  historyProblems,
  SESSION_FORMAT_VERSION,
  type SessionEntry,
  type SessionInfo,
  type SessionStore,
} from '../sessions';
import { compileSchema } from '../contracts';
import { readJsonFile, withFileLock, writeJsonFileAtomic } from '../../../plugin-host/fs/node';

export const SESSION_FILE_FORMAT = 'i-session-file';
/** Images ride in messages as data URLs; past this the file is almost surely not a session. */
export const SESSION_FILE_MAX_BYTES = 64 * 1024 * 1024;

interface SessionFile {
  format: typeof SESSION_FILE_FORMAT;
  version: number;
  workspace_id: string;
  workspace: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  checkpointSeq: number;
  messages: Message[];
}

const checkShape = compileSchema(
  {
    type: 'object',
    required: [
      'format',
      'version',
      'workspace_id',
      'workspace',
      'title',
      'createdAt',
      'updatedAt',
      'checkpointSeq',
      'messages',
    ],
    additionalProperties: false,
    properties: {
      format: { const: SESSION_FILE_FORMAT },
      version: { const: SESSION_FORMAT_VERSION },
      workspace_id: { type: 'string', maxLength: 64 },
      workspace: { type: 'string' },
      title: { type: 'string', maxLength: 500 },
      createdAt: { type: 'number' },
      updatedAt: { type: 'number' },
      checkpointSeq: { type: 'integer', minimum: -1 },
      messages: { type: 'array', items: messageSchema },
    },
  },
  'session file',
);

export interface SessionFileOptions {
  /** Absolute path of the file. */
  file: string;
  /** The workspace's id (registry UUID or --workspace-id) and real path of this run. */
  workspaceId: string;
  workspace: string;
  /** Largest file read or written (default SESSION_FILE_MAX_BYTES; tests lower it). */
  maxBytes?: number;
}

/** A SessionStore holding one session, `options.file`; every method checks the file's workspace. */
export function createSessionFileStore(options: SessionFileOptions): SessionStore {
  const { file, workspaceId, workspace } = options;
  const maxBytes = options.maxBytes ?? SESSION_FILE_MAX_BYTES;
  const opts = { maxBytes };
  const corrupt = (why: string) =>
    new HarnessError(
      'E_SESSION_CORRUPT',
      `The session file ${file} cannot be used: ${why}. Nothing was changed. Restore it from a backup, or pass another --session FILE.`,
      { file },
    );

  async function read(): Promise<SessionFile | null> {
    let value: unknown;
    try {
      value = await readJsonFile(file, opts);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'E_JSON_TOO_LARGE')
        throw new HarnessError(
          'E_SESSION_FILE_TOO_LARGE',
          `The session file ${file} is over ${maxBytes} bytes. Start a new --session FILE.`,
          { file },
        );
      if (code === 'E_JSON_CORRUPT') throw corrupt('it is not UTF-8 JSON (cut short or edited)');
      throw error;
    }
    if (value === undefined) return null;
    const head = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    if (head.format !== SESSION_FILE_FORMAT)
      throw corrupt(`it is not an i session file (no "format": "${SESSION_FILE_FORMAT}")`);
    if (typeof head.version === 'number' && head.version > SESSION_FORMAT_VERSION) {
      throw new HarnessError(
        'E_SESSION_VERSION',
        `The session file ${file} was written by a newer i (format ${head.version}; this i reads ${SESSION_FORMAT_VERSION}). Update i; nothing was changed.`,
        { file, version: head.version },
      );
    }
    const problems = checkShape(value);
    if (problems.length > 0) throw corrupt(problems.slice(0, 3).join('; '));
    const doc = value as SessionFile;
    if (doc.workspace_id !== workspaceId) {
      throw new HarnessError(
        'E_SESSION_WORKSPACE_MISMATCH',
        `The session file ${file} belongs to the workspace ${doc.workspace_id} (last used in ${doc.workspace}), not to this one (${workspaceId}, ${workspace}). Run i in that project (-C ${doc.workspace}); if this folder is that project moved or on another machine, add --workspace-id ${doc.workspace_id}; otherwise use another --session FILE. Nothing was changed.`,
        { file, expected: workspaceId, found: doc.workspace_id, found_workspace: doc.workspace },
      );
    }
    const pairing = historyProblems(doc.messages, doc.messages.length);
    if (pairing.length > 0) throw corrupt(`its conversation is inconsistent (${pairing.slice(0, 2).join('; ')})`);
    return doc;
  }

  const info = (id: string, doc: SessionFile): SessionInfo => ({
    id,
    workspaceId: doc.workspace_id,
    title: doc.title,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    checkpointSeq: doc.checkpointSeq,
  });
  const mustRead = async (id: string) => {
    const doc = await read();
    if (!doc)
      throw new HarnessError(
        'E_SESSION_NOT_FOUND',
        `There is no session file ${file}. Run a prompt with --session ${file} to create it.`,
        { id, file },
      );
    return doc;
  };
  const tooLarge = () =>
    new HarnessError(
      'E_SESSION_FILE_TOO_LARGE',
      `The session file ${file} would grow past ${maxBytes} bytes. Start a new --session FILE; this one keeps its last checkpoint.`,
      { file },
    );
  const write = (doc: SessionFile) =>
    writeJsonFileAtomic(file, doc, opts).catch((error: unknown) => {
      throw (error as { code?: unknown }).code === 'E_JSON_TOO_LARGE' ? tooLarge() : error;
    });
  const locked = <T>(fn: () => Promise<T>) => withFileLock(file, fn, opts);

  return {
    workspaceId,
    async create(init) {
      const id = init.id ?? file;
      return locked(async () => {
        if (await read())
          throw new HarnessError(
            'E_SESSION_EXISTS',
            `The session file ${file} exists already. Resume it with --session ${file}, or choose another file.`,
            { file },
          );
        const now = Date.now();
        const doc: SessionFile = {
          format: SESSION_FILE_FORMAT,
          version: SESSION_FORMAT_VERSION,
          workspace_id: workspaceId,
          workspace,
          title: init.title,
          createdAt: init.createdAt ?? now,
          updatedAt: now,
          checkpointSeq: -1,
          messages: [],
        };
        await write(doc);
        return info(id, doc);
      });
    },
    async get(id) {
      const doc = await read();
      return doc ? info(id, doc) : null;
    },
    async list() {
      const doc = await read();
      return doc ? [info(file, doc)] : [];
    },
    async load(id) {
      const doc = await mustRead(id);
      return { info: info(id, doc), messages: doc.messages };
    },
    async loadIntact(id) {
      const doc = await mustRead(id);
      return { info: info(id, doc), entries: [{ kind: 'reset', messages: doc.messages }], damage: null };
    },
    async commit(id, entries: SessionEntry[], expectedSeq) {
      return locked(async () => {
        const doc = await mustRead(id);
        if (doc.checkpointSeq !== expectedSeq) {
          throw new HarnessError(
            'E_SESSION_CONFLICT',
            `The session file ${file} was changed by another run meanwhile. Run one i per session file at a time; run again to continue from what it holds now.`,
            { file },
          );
        }
        let messages = [...doc.messages];
        for (const e of entries) {
          if (e.kind === 'reset') messages = [...e.messages];
          else messages.push(e.message);
        }
        // The workspace's last real path is informative only: the id is what is checked.
        const next: SessionFile = {
          ...doc,
          workspace,
          messages,
          checkpointSeq: doc.checkpointSeq + entries.length,
          updatedAt: Date.now(),
        };
        await write(next);
        return info(id, next);
      });
    },
    async rename(id, title) {
      return locked(async () => {
        const next = { ...(await mustRead(id)), title, updatedAt: Date.now() };
        await write(next);
        return info(id, next);
      });
    },
    async delete(id) {
      await locked(async () => {
        await mustRead(id); // another workspace's file is refused, not deleted
        await fsp.unlink(file);
      });
    },
  };
}
