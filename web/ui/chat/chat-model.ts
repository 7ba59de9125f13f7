// What the chat shows, derived from a history: one item per user message, assistant message (text, thinking and
// its tool calls with their results) and tool images; a compaction summary as a divider and workspace content the
// harness put in the history (AGENTS.md, memory/skills snapshots and deltas) as context items, never as the
// person's words. Pure, so it is unit-tested in Node.
import { thinkingOf } from '../../core/page';
import type { AssistantMessage, ContentPart, Message } from '../../core/contracts';
import { costOf, priceFor } from '../../core/page';
import type { CompactionInfo, ErrorData, PriceTable, StepUsage } from '../../core/contracts';

export interface ToolView {
  id: string;
  name: string;
  /** The raw argument text as the model sent it. */
  args: string;
  /** `output` is what the model saw; `full` the whole result the log keeps when the model saw a preview + reference. */
  result?: {
    output: string;
    error: boolean;
    code?: string;
    full?: string;
    rule?: { decision: string; tool: string; path?: string; scope: string };
    outsideUndo?: true;
  };
}

/** What a context item holds, which names its label. */
export type ContextKind =
  | 'instructions'
  | 'snapshot.memory'
  | 'snapshot.skills'
  | 'snapshot.both'
  | 'snapshot.empty'
  | 'delta.memory'
  | 'delta.skills'
  | 'delta.both'
  | 'replay';

export type ChatItem =
  /** `failed`: the turn of this prompt failed before anything answered it (the message's `_failed`). */
  | { kind: 'user'; index: number; text: string; images: string[]; files?: string[]; failed?: ErrorData }
  | { kind: 'tool-images'; index: number; callId: string; images: string[] }
  /** A compaction summary; `info` is missing in sessions saved before compactions recorded their figures. */
  | { kind: 'compaction'; index: number; summary: string; info?: CompactionInfo }
  /** Workspace content in the model's view: `text` is its body, `count` its entries (memory keys, skills). */
  | {
      kind: 'context';
      index: number;
      context: ContextKind;
      text: string;
      source?: string;
      count?: number;
      truncated?: boolean;
    }
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
      /** This model call's usage, as the loop stamped it (`_usage`). */
      usage?: StepUsage;
      /** On the answer: the usage of every call of its turn, in order (shown under the answer). */
      turnUsage?: StepUsage[];
    };

const textOf = (content: string | ContentPart[] | null) =>
  content === null
    ? ''
    : typeof content === 'string'
      ? content
      : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const imagesOf = (content: string | ContentPart[]) =>
  typeof content === 'string' ? [] : content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));

const CODE_RE = /^Error (E_[A-Z0-9_]+): /;

/** The composer attaches each @-mentioned file as a text part starting with this header (composer-mentions.ts). */
const ATTACHMENT_RE = /^\[Workspace file (.+?), attached by the person/;
const isAttachment = (p: ContentPart) => p.type === 'text' && ATTACHMENT_RE.test(p.text);
/** What the person typed: the text parts that are not attached files (those show as file chips). */
const typedText = (content: string | ContentPart[]) =>
  typeof content === 'string' ? content : textOf(content.filter((p) => !isAttachment(p)));
const attachedFiles = (content: string | ContentPart[]) =>
  typeof content === 'string'
    ? []
    : content.flatMap((p) => (p.type === 'text' ? (ATTACHMENT_RE.exec(p.text)?.slice(1, 2) ?? []) : []));

export function chatItems(messages: readonly Message[]): ChatItem[] {
  const items: ChatItem[] = [];
  // Tool results belong to the latest assistant message that made a call with their id (ids may repeat across
  // turns with some servers, so a global id map would attach a result to the wrong call).
  let lastAssistant: (ChatItem & { kind: 'assistant' }) | undefined;
  messages.forEach((m, index) => {
    if (m.role === 'user') {
      const meta = m._meta as { kind?: string; tool_call_id?: string } | undefined;
      const special = meta?.kind ? harnessItem(m.content, m._meta!, index) : null;
      if (special) items.push(special);
      else if (meta?.kind === 'tool_images')
        items.push({ kind: 'tool-images', index, callId: String(meta.tool_call_id), images: imagesOf(m.content) });
      // The loop's notes to the model (an invalid batch, a JSON-protocol error) are not the person's words.
      else if (meta?.kind !== 'batch_error' && meta?.kind !== 'json_protocol_error') {
        const files = attachedFiles(m.content);
        items.push({
          kind: 'user',
          index,
          text: typedText(m.content),
          images: imagesOf(m.content),
          ...(files.length ? { files } : {}),
          ...(m._failed ? { failed: m._failed } : {}),
        });
      }
    } else if (m.role === 'assistant') {
      const item = assistantItem(m, index, new Map());
      lastAssistant = item;
      items.push(item);
    } else if (m.role === 'tool' && lastAssistant) {
      const tool = lastAssistant.tools.find((t) => t.id === m.tool_call_id && !t.result);
      const code = m._error ? CODE_RE.exec(m.content)?.[1] : undefined;
      if (tool)
        tool.result = {
          output: m.content,
          error: m._error === true,
          ...(code ? { code } : {}),
          ...(typeof m._full_output === 'string' ? { full: m._full_output } : {}),
          ...(m._approval?.rule ? { rule: m._approval.rule } : {}),
          ...(m._outside_undo ? { outsideUndo: true as const } : {}),
        };
    }
  });
  // An assistant message ends its turn when no other assistant message follows before the next prompt (or summary);
  // tool images and context items the loop adds between steps do not break a turn. The answer carries the usage
  // of all the turn's calls.
  let turn: Array<ChatItem & { kind: 'assistant' }> = [];
  const endTurn = () => {
    const answer = turn.at(-1);
    if (answer) {
      answer.endsTurn = true;
      const usage = turn.flatMap((a) => (a.usage ? [a.usage] : []));
      if (usage.length) answer.turnUsage = usage;
    }
    turn = [];
  };
  for (const item of items) {
    if (item.kind === 'assistant') turn.push(item);
    else if (item.kind !== 'tool-images' && item.kind !== 'context') endTurn();
  }
  endTurn();
  return items;
}

const SUMMARY_PREFIX = 'Summary of the earlier conversation:\n';
/** AGENTS.md's text inside the project-instructions message (modules/prompts/agents-md.ts). */
const INSTRUCTIONS_RE = /<workspace_file path="[^"]*">\n([\s\S]*)\n<\/workspace_file>\s*$/;

/** A user message the harness wrote (a summary, workspace content), as its item; null for any other kind. */
function harnessItem(content: string | ContentPart[], meta: Record<string, unknown>, index: number): ChatItem | null {
  const text = textOf(content);
  switch (meta.kind) {
    case 'compaction_summary': {
      const info = meta.compaction as CompactionInfo | undefined;
      const summary = text.startsWith(SUMMARY_PREFIX) ? text.slice(SUMMARY_PREFIX.length) : text;
      return { kind: 'compaction', index, summary, ...(isCompactionInfo(info) ? { info } : {}) };
    }
    case 'project_instructions':
      return {
        kind: 'context',
        index,
        context: 'instructions',
        text: INSTRUCTIONS_RE.exec(text)?.[1] ?? text,
        source: typeof meta.source === 'string' ? meta.source : 'AGENTS.md',
        ...(meta.truncated === true ? { truncated: true } : {}),
      };
    case 'context_snapshot': {
      const ids = Object.keys((meta.items as Record<string, string> | undefined) ?? {});
      return {
        kind: 'context',
        index,
        context: `snapshot.${which(ids) ?? 'empty'}`,
        text: bodyOf(text),
        count: ids.length,
      };
    }
    case 'context_delta': {
      const ids = [
        ...Object.keys((meta.upsert as Record<string, string> | undefined) ?? {}),
        ...((meta.remove as string[] | undefined) ?? []),
      ];
      return {
        kind: 'context',
        index,
        context: `delta.${which(ids) ?? 'both'}`,
        text: bodyOf(text),
        count: ids.length,
      };
    }
    default:
      return null;
  }
}

/** A record the divider can show: a session log is data from storage, so its shape is checked, not assumed. */
function isCompactionInfo(v: unknown): v is CompactionInfo {
  const i = v as Partial<CompactionInfo> | null | undefined;
  return (
    typeof i === 'object' &&
    i !== null &&
    typeof i.id === 'string' &&
    [i.folded_messages, i.tokens_before, i.tokens_after].every((n) => typeof n === 'number' && Number.isFinite(n))
  );
}

/** Whether context item ids (`memory/<key>`, `skill/<name>`) are memory, skills or both; undefined for none. */
function which(ids: string[]): 'memory' | 'skills' | 'both' | undefined {
  const memory = ids.some((id) => id.startsWith('memory/'));
  const skills = ids.some((id) => id.startsWith('skill/'));
  return memory && skills ? 'both' : memory ? 'memory' : skills ? 'skills' : undefined;
}

/** A snapshot or delta without its first line (which tells the model how to read it; the label says it here). */
const bodyOf = (text: string) => {
  const cut = text.indexOf('\n');
  return cut < 0 ? text : text.slice(cut + 1);
};

export function assistantItem(
  m: AssistantMessage,
  index: number,
  results: ReadonlyMap<string, ToolView['result']>,
): ChatItem & { kind: 'assistant' } {
  return {
    kind: 'assistant',
    index,
    text: textOf(m.content),
    thinking: thinkingOf(m),
    ...(m._provider?.model ? { model: m._provider.model } : {}),
    ...(m._stopped ? { stopped: true } : {}),
    ...(m._usage ? { usage: m._usage } : {}),
    tools: (m.tool_calls ?? []).map((c) => {
      const result = results.get(c.id);
      return { id: c.id, name: c.function.name, args: c.function.arguments, ...(result ? { result } : {}) };
    }),
  };
}

/** The sums of a turn's calls; `cost` is null when no call had a price, `partial` when only some had one. */
export function turnFigures(steps: readonly StepUsage[], prices: PriceTable | null) {
  let cost: number | null = null;
  let unpriced = 0;
  for (const s of steps) {
    const c = prices ? costOf(s, priceFor(prices, s.model)) : null;
    if (c === null) unpriced++;
    else cost = (cost ?? 0) + c;
  }
  const sum = (f: (s: StepUsage) => number) => steps.reduce((n, s) => n + f(s), 0);
  return {
    input: sum((s) => s.input_tokens),
    output: sum((s) => s.output_tokens),
    cacheRead: sum((s) => s.cache_read_tokens),
    cacheWrite: sum((s) => s.cache_write_tokens),
    ms: sum((s) => s.duration_ms),
    cost,
    partial: cost !== null && unpriced > 0,
    estimated: {
      input: steps.some((s) => !s.reported.input),
      output: steps.some((s) => !s.reported.output),
      cache: steps.some((s) => !s.reported.cache),
    },
    models: [...new Set(steps.map((s) => s.model))],
  };
}

/** Dollars: cents for a cent or more, else four decimals (a short answer costs fractions of a cent). */
export const dollars = (n: number) => (n >= 0.01 || n === 0 ? `$${n.toFixed(2)}` : `$${n.toFixed(4)}`);

/**
 * The summary with its single line breaks kept: the default prompt asks for plain text under headings ("Goal: …"
 * on its own line), which Markdown would run together into one paragraph. Code fences are left as they are.
 */
export function withLineBreaks(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line, i, lines) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      const next = lines[i + 1];
      return fenced || next === undefined || next.trim() === '' || line.trim() === '' || line.endsWith('  ')
        ? line
        : `${line}  `;
    })
    .join('\n');
}

/**
 * Index of the last prompt the person wrote, or -1: a user message the harness did not mark (`_meta.kind`: tool
 * images, batch notes, summaries, workspace content). While a turn runs, the saved assistant messages after it
 * belong to that turn, so none of them is its answer yet.
 */
export function lastPromptIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && (m._meta as { kind?: string } | undefined)?.kind === undefined) return i;
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
