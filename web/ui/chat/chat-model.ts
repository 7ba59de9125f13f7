// What the chat shows, derived from a history: one item per user message, assistant message (text, thinking and
// its tool calls with their results) and tool images. Pure, so it is unit-tested in Node.
import { thinkingOf } from '../../core/app-agent';
import type { AssistantMessage, ContentPart, Message } from '../../core';

export interface ToolView {
  id: string;
  name: string;
  /** The raw argument text as the model sent it. */
  args: string;
  result?: { output: string; error: boolean; code?: string };
}

export type ChatItem =
  | { kind: 'user'; index: number; text: string; images: string[]; files?: string[] }
  | { kind: 'tool-images'; index: number; callId: string; images: string[] }
  | {
      kind: 'assistant';
      index: number;
      text: string;
      thinking: string;
      tools: ToolView[];
      /** The model that wrote it (`_provider.model`), shown quietly under the message. */
      model?: string;
      /** The person stopped the turn while this message streamed (it holds what had arrived). */
      stopped?: boolean;
      /** The turn's last assistant message (its answer): the one that carries the message actions and model name. */
      endsTurn?: boolean;
    };

const textOf = (content: string | ContentPart[] | null) =>
  content === null ? '' : typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const imagesOf = (content: string | ContentPart[]) => (typeof content === 'string' ? [] : content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : [])));

const CODE_RE = /^Error (E_[A-Z0-9_]+): /;

/** The composer attaches each @-mentioned file as a text part starting with this header (composer-mentions.ts). */
const ATTACHMENT_RE = /^\[Workspace file (.+?), attached by the person/;
const isAttachment = (p: ContentPart) => p.type === 'text' && ATTACHMENT_RE.test(p.text);
/** What the person typed: the text parts that are not attached files (those show as file chips). */
const typedText = (content: string | ContentPart[]) => (typeof content === 'string' ? content : textOf(content.filter((p) => !isAttachment(p))));
const attachedFiles = (content: string | ContentPart[]) =>
  typeof content === 'string' ? [] : content.flatMap((p) => (p.type === 'text' ? (ATTACHMENT_RE.exec(p.text)?.slice(1, 2) ?? []) : []));

export function chatItems(messages: readonly Message[]): ChatItem[] {
  const items: ChatItem[] = [];
  // Tool results belong to the latest assistant message that made a call with their id (ids may repeat across
  // turns with some servers, so a global id map would attach a result to the wrong call).
  let lastAssistant: (ChatItem & { kind: 'assistant' }) | undefined;
  messages.forEach((m, index) => {
    if (m.role === 'user') {
      const meta = m._meta as { kind?: string; tool_call_id?: string } | undefined;
      if (meta?.kind === 'tool_images') items.push({ kind: 'tool-images', index, callId: String(meta.tool_call_id), images: imagesOf(m.content) });
      else if (meta?.kind !== 'batch_error') {
        const files = attachedFiles(m.content);
        items.push({ kind: 'user', index, text: typedText(m.content), images: imagesOf(m.content), ...(files.length ? { files } : {}) });
      }
    } else if (m.role === 'assistant') {
      const item = assistantItem(m, index, new Map());
      lastAssistant = item;
      items.push(item);
    } else if (m.role === 'tool' && lastAssistant) {
      const tool = lastAssistant.tools.find((t) => t.id === m.tool_call_id && !t.result);
      const code = m._error ? CODE_RE.exec(m.content)?.[1] : undefined;
      if (tool) tool.result = { output: m.content, error: m._error === true, ...(code ? { code } : {}) };
    }
  });
  // An assistant message ends its turn when no other assistant message follows before the next prompt.
  let next: ChatItem['kind'] | undefined;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'tool-images') continue;
    if (item.kind === 'assistant' && next !== 'assistant') item.endsTurn = true;
    next = item.kind;
  }
  return items;
}

export function assistantItem(m: AssistantMessage, index: number, results: ReadonlyMap<string, ToolView['result']>): ChatItem & { kind: 'assistant' } {
  return {
    kind: 'assistant',
    index,
    text: textOf(m.content),
    thinking: thinkingOf(m),
    ...(m._provider?.model ? { model: m._provider.model } : {}),
    ...(m._stopped ? { stopped: true } : {}),
    tools: (m.tool_calls ?? []).map((c) => {
      const result = results.get(c.id);
      return { id: c.id, name: c.function.name, args: c.function.arguments, ...(result ? { result } : {}) };
    }),
  };
}

/**
 * Index of the last prompt the person wrote (not tool images, not a batch note), or -1. While a turn runs, the
 * saved assistant messages after it belong to that turn, so none of them is its answer yet.
 */
export function lastPromptIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const kind = m.role === 'user' ? (m._meta as { kind?: string } | undefined)?.kind : undefined;
    if (m.role === 'user' && kind !== 'tool_images' && kind !== 'batch_error') return i;
  }
  return -1;
}

/** Pretty JSON for the arguments view; the raw text when it is not JSON. */
export function prettyArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/**
 * `next` with every item that did not change replaced by the object it had in `previous`, so the view (keyed by
 * object) keeps its DOM: a checkpoint reloads the whole session from storage as new objects, and without this every
 * message of a long conversation was rendered again at each step.
 */
export function keepUnchanged(previous: readonly ChatItem[], next: ChatItem[]): ChatItem[] {
  const byIndex = new Map(previous.map((item) => [`${item.kind}:${item.index}`, item]));
  return next.map((item) => {
    const old = byIndex.get(`${item.kind}:${item.index}`);
    return old && same(old, item) ? old : item;
  });
}

/** Deep equality of plain data (strings compare by value, no copies: image data URLs can be megabytes). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
