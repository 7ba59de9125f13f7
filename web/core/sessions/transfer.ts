// Export/import (versioned JSON, validated on import), Markdown export and fork. Built on the port, so both
// stores share them.
import { HarnessError } from '../errors';
import type { Message } from '../providers/types';
import { compileSchema } from '../tools/validate';
import { messageSchema } from '../hooks';
import { SESSION_FORMAT_VERSION, type SessionInfo, type SessionStore } from './types';
import { MAX_SESSION_TITLE, forkTitle } from './title';
import { historyProblems } from './validate-history';

export const SESSION_EXPORT_FORMAT = 'i-session';

export interface SessionExport {
  format: typeof SESSION_EXPORT_FORMAT;
  version: number;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: Message[];
}

const checkExport = compileSchema(
  {
    type: 'object',
    required: ['format', 'version', 'title', 'messages'],
    additionalProperties: false,
    properties: {
      format: { const: SESSION_EXPORT_FORMAT },
      version: { const: SESSION_FORMAT_VERSION },
      title: { type: 'string', maxLength: MAX_SESSION_TITLE },
      createdAt: { type: 'number' },
      updatedAt: { type: 'number' },
      messages: { type: 'array', items: messageSchema },
    },
  },
  'session',
);

export async function exportSession(store: SessionStore, id: string): Promise<SessionExport> {
  const { info, messages } = await store.load(id);
  return { format: SESSION_EXPORT_FORMAT, version: SESSION_FORMAT_VERSION, title: info.title, createdAt: info.createdAt, updatedAt: info.updatedAt, messages };
}

/** Validates an export (shape, version, tool-call pairing) and stores it as a new session of this workspace. */
export async function importSession(store: SessionStore, data: unknown, title?: string): Promise<SessionInfo> {
  const head = (typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {}) as Record<string, unknown>;
  if (head.format !== SESSION_EXPORT_FORMAT) {
    throw new HarnessError(
      'E_SESSION_IMPORT_INVALID',
      `This file is not an i session export (it has no "format": "${SESSION_EXPORT_FORMAT}"; it may come from another app). Import a JSON file made with Export JSON in i.`,
      { problems: ['format'] },
    );
  }
  if (typeof head.version === 'number' && head.version > SESSION_FORMAT_VERSION) {
    throw new HarnessError(
      'E_SESSION_IMPORT_VERSION',
      `This session export was made by a newer i (format version ${head.version}; this i reads version ${SESSION_FORMAT_VERSION}). Update i, then import it again.`,
      { version: head.version },
    );
  }
  const problems = checkExport(data);
  if (problems.length > 0) {
    throw new HarnessError('E_SESSION_IMPORT_INVALID', `This file is not an i session export (format ${SESSION_EXPORT_FORMAT}, version ${SESSION_FORMAT_VERSION}): ${problems.slice(0, 3).join('; ')}. Import a JSON file made with Export JSON in i, unchanged.`, { problems });
  }
  const exported = data as SessionExport;
  const pairing = historyProblems(exported.messages, exported.messages.length);
  if (pairing.length > 0) {
    throw new HarnessError('E_SESSION_IMPORT_INVALID', `The imported conversation is inconsistent: ${pairing.join('; ')}.`, { problems: pairing });
  }
  const info = await store.create({ title: title ?? exported.title, ...(exported.createdAt !== undefined ? { createdAt: exported.createdAt } : {}) });
  if (exported.messages.length === 0) return info;
  return store.commit(info.id, [{ kind: 'reset', messages: exported.messages }], info.checkpointSeq);
}

/**
 * A new session holding the history up to and including `messageIndex`. A cut inside a tool batch extends to
 * the end of that batch's results, so the fork is always a valid conversation.
 */
export async function forkSession(store: SessionStore, id: string, messageIndex: number, title?: string): Promise<SessionInfo> {
  const { info, messages } = await store.load(id);
  if (!Number.isInteger(messageIndex) || messageIndex < 0 || messageIndex >= messages.length) {
    throw new HarnessError('E_SESSION_FORK_POINT', `Message ${messageIndex} does not exist in "${info.title}" (it has ${messages.length}).`, { messageIndex });
  }
  let end = messageIndex + 1;
  while (end < messages.length && historyProblems(messages.slice(0, end), end).length > 0) end++;
  const name = title ?? forkTitle(info.title, (await store.list()).map((s) => s.title));
  const forked = await store.create({ title: name, forkedFrom: { sessionId: id, messageIndex } });
  return store.commit(forked.id, [{ kind: 'reset', messages: messages.slice(0, end) }], forked.checkpointSeq);
}

/** A readable Markdown transcript. Tool output is fenced so it cannot render as markup. */
export function sessionToMarkdown(title: string, messages: readonly Message[]): string {
  const fence = (text: string) => {
    const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return `${ticks}\n${text}\n${ticks}`;
  };
  const textOf = (content: Message['content']) =>
    typeof content === 'string' ? content : content === null ? '' : content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
  const parts = [`# ${title}`];
  for (const m of messages) {
    if (m.role === 'system') parts.push(`## System\n\n${fence(m.content)}`);
    else if (m.role === 'user') parts.push(`## User\n\n${textOf(m.content)}`);
    else if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map((c) => `**Tool call** \`${c.function.name}\` (${c.id})\n\n${fence(c.function.arguments)}`);
      parts.push(['## Assistant', textOf(m.content), ...calls].filter(Boolean).join('\n\n'));
    } else parts.push(`## Tool result (${m.tool_call_id})${m._error ? ' — error' : ''}\n\n${fence(m.content)}`);
  }
  return `${parts.join('\n\n')}\n`;
}
