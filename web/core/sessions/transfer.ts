// Export/import (versioned JSON, validated on import), Markdown export and fork. Built on the port, so both
// stores share them.
//
// An imported session keeps only what a person could have produced: every `_`-prefixed field, at any depth of a
// message or a content part (`_anthropic_content`, `_responses_output`, `_provider`, `_approval`, `_full_output`,
// `_meta`, `_usage`, `_error`, …), is dropped, and so is an image part's `file_id` (set only on a request's copy of
// history, never stored). Those fields are host replay and provenance state that the person never sees: a file
// carrying them could make the next request say something other than the visible text (the Anthropic adapter
// replays `_anthropic_content` instead of `content`), claim a provider file upload, or forge who approved a call
// and what it cost. What a person loses on an imported session: thinking-signature / encrypted-reasoning replay
// (the next request starts from the visible text, as after a provider switch), the full text of bounded tool
// results beyond their preview, the error flag of failed tool results, approval provenance, usage and cost of the
// imported steps, and compaction markers. One marker is rebuilt rather than dropped, because the history is not
// valid without it: a user message holding a tool's images among that batch's results keeps
// `_meta: {kind: 'tool_images', tool_call_id}` (those two strings only). The export itself keeps everything (it is
// the person's own copy).
import { HarnessError } from '../contracts';
import type { Message } from '../contracts';
import { compileSchema } from '../contracts';
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
  return {
    format: SESSION_EXPORT_FORMAT,
    version: SESSION_FORMAT_VERSION,
    title: info.title,
    createdAt: info.createdAt,
    updatedAt: info.updatedAt,
    messages,
  };
}

/** Validates an export (shape, version, tool-call pairing) and stores it as a new session of this workspace. */
export async function importSession(store: SessionStore, data: unknown, title?: string): Promise<SessionInfo> {
  const head = (typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {}) as Record<
    string,
    unknown
  >;
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
    throw new HarnessError(
      'E_SESSION_IMPORT_INVALID',
      `This file is not an i session export (format ${SESSION_EXPORT_FORMAT}, version ${SESSION_FORMAT_VERSION}): ${problems.slice(0, 3).join('; ')}. Import a JSON file made with Export JSON in i, unchanged.`,
      { problems },
    );
  }
  const exported = { ...(data as SessionExport), messages: (data as SessionExport).messages.map(visibleMessage) };
  const pairing = historyProblems(exported.messages, exported.messages.length);
  if (pairing.length > 0) {
    throw new HarnessError(
      'E_SESSION_IMPORT_INVALID',
      `The imported conversation is inconsistent: ${pairing.join('; ')}.`,
      { problems: pairing },
    );
  }
  const info = await store.create({
    title: title ?? exported.title,
    ...(exported.createdAt !== undefined ? { createdAt: exported.createdAt } : {}),
  });
  if (exported.messages.length === 0) return info;
  return store.commit(info.id, [{ kind: 'reset', messages: exported.messages }], info.checkpointSeq);
}

/** A copy of `value` without host-only fields at any depth (see the file header); arrays and plain data only. */
function withoutHostFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHostFields);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('_')) continue;
    out[key] = withoutHostFields(v);
  }
  if (out.type === 'image_url') delete out.file_id;
  return out;
}

/** What of an imported message a person could have produced (the visible content, tool calls, their results). */
export function visibleMessage(message: Message): Message {
  const out = withoutHostFields(message) as Message;
  const meta = message.role === 'user' ? message._meta : undefined;
  if (out.role === 'user' && meta?.kind === 'tool_images') {
    out._meta = {
      kind: 'tool_images',
      ...(typeof meta.tool_call_id === 'string' ? { tool_call_id: meta.tool_call_id } : {}),
    };
  }
  return out;
}

/**
 * A new session holding the history up to and including `messageIndex`. A cut inside a tool batch extends to
 * the end of that batch's results, so the fork is always a valid conversation.
 */
export async function forkSession(
  store: SessionStore,
  id: string,
  messageIndex: number,
  title?: string,
): Promise<SessionInfo> {
  const { info, messages } = await store.load(id);
  if (!Number.isInteger(messageIndex) || messageIndex < 0 || messageIndex >= messages.length) {
    throw new HarnessError(
      'E_SESSION_FORK_POINT',
      `Message ${messageIndex} does not exist in "${info.title}" (it has ${messages.length}).`,
      { messageIndex },
    );
  }
  let end = messageIndex + 1;
  while (end < messages.length && historyProblems(messages.slice(0, end), end).length > 0) end++;
  const name =
    title ??
    forkTitle(
      info.title,
      (await store.list()).map((s) => s.title),
    );
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
    typeof content === 'string'
      ? content
      : content === null
        ? ''
        : content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
  const parts = [`# ${title}`];
  for (const m of messages) {
    if (m.role === 'system') parts.push(`## System\n\n${fence(m.content)}`);
    else if (m.role === 'user') parts.push(`## User\n\n${textOf(m.content)}`);
    else if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map(
        (c) => `**Tool call** \`${c.function.name}\` (${c.id})\n\n${fence(c.function.arguments)}`,
      );
      parts.push(['## Assistant', textOf(m.content), ...calls].filter(Boolean).join('\n\n'));
    } else parts.push(`## Tool result (${m.tool_call_id})${m._error ? ' — error' : ''}\n\n${fence(m.content)}`);
  }
  return `${parts.join('\n\n')}\n`;
}
