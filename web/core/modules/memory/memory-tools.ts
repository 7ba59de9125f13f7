// `memory_get {}` and `memory_set {key?, value}` (seed 000 §9). Both ask for approval like external tools do
// ("记忆工具都需外部工具审批"): approval 'ask', external true. memory_set upserts `key`; without a key the value is
// stored as the next free `note-N`; an empty value removes the key. Values that look like secrets are refused
// (E_MEMORY_SECRET) before anything is written.
import { HarnessError } from '../../contracts';
import { guard, stringArg } from '../../tools';
import type { PreparedCall, ToolDefinition } from '../../contracts';
import {
  MEMORY_KEY_PATTERN,
  MEMORY_MAX_ENTRIES,
  MEMORY_MAX_TOTAL_CHARS,
  MEMORY_MAX_VALUE_CHARS,
  totalChars,
  type MemoryData,
} from './memory-data';
import type { MemoryStore } from './memory-store';
import { secretKind } from './secret-check';

export function formatMemory(data: MemoryData): string {
  const keys = Object.keys(data.entries).sort();
  if (keys.length === 0) return '(memory is empty)';
  return keys.map((k) => `${k}: ${data.entries[k]!}`).join('\n');
}

function nextNoteKey(data: MemoryData): string {
  for (let n = 1; ; n++) if (!(`note-${n}` in data.entries)) return `note-${n}`;
}

interface SetPlan {
  key: string | undefined;
  value: string;
}

function parseSet(args: Record<string, unknown>): SetPlan {
  const key = stringArg('memory_set', args, 'key', { optional: true });
  const value = stringArg('memory_set', args, 'value')!;
  if (key !== undefined && !MEMORY_KEY_PATTERN.test(key)) {
    throw new HarnessError(
      'E_MEMORY_KEY_INVALID',
      `The memory key ${JSON.stringify(key.slice(0, 80))} is not allowed. Use 1–64 ASCII letters, digits, "_", "-" or ".", starting with a letter or digit.`,
    );
  }
  if (key === undefined && value === '')
    throw new HarnessError('E_TOOL_ARGUMENTS', 'memory_set: an empty value removes a key, so give the key to remove.');
  if (Array.from(value).length > MEMORY_MAX_VALUE_CHARS) {
    throw new HarnessError(
      'E_MEMORY_VALUE_TOO_LONG',
      `The value has more than ${MEMORY_MAX_VALUE_CHARS} characters. Store a shorter note.`,
    );
  }
  const secret = secretKind(`${key ?? ''} ${value}`);
  if (secret)
    throw new HarnessError(
      'E_MEMORY_SECRET',
      `The value looks like ${secret}. Memory never stores secrets; keep credentials in the credentials store and remember only where they are.`,
    );
  return { key, value };
}

/** Applies one memory_set to a memory; returns the new memory and what happened. */
export function applyMemorySet(current: MemoryData, plan: SetPlan): { next: MemoryData; result: string } {
  const key = plan.key ?? nextNoteKey(current);
  const entries = { ...current.entries };
  if (plan.value === '') {
    if (!(key in entries))
      throw new HarnessError(
        'E_MEMORY_KEY_NOT_FOUND',
        `There is no memory entry "${key}" to remove. Call memory_get to see the keys.`,
      );
    delete entries[key];
    return { next: { version: 1, entries }, result: `Removed memory "${key}".` };
  }
  const existed = key in entries;
  entries[key] = plan.value;
  const next: MemoryData = { version: 1, entries };
  if (Object.keys(entries).length > MEMORY_MAX_ENTRIES) {
    throw new HarnessError(
      'E_MEMORY_FULL',
      `Memory already has ${MEMORY_MAX_ENTRIES} entries. Remove one (memory_set with an empty value) or update an existing key.`,
    );
  }
  if (totalChars(next) > MEMORY_MAX_TOTAL_CHARS) {
    throw new HarnessError(
      'E_MEMORY_FULL',
      `Memory would exceed ${MEMORY_MAX_TOTAL_CHARS} characters. Shorten or remove entries first.`,
    );
  }
  return { next, result: `${existed ? 'Updated' : 'Saved'} memory "${key}".` };
}

export function memoryTools(store: MemoryStore): ToolDefinition[] {
  const getTool: ToolDefinition = {
    schema: {
      name: 'memory_get',
      description: 'Show everything remembered for this workspace across sessions, as "key: value" lines.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
    approval: 'ask',
    external: true,
    async execute(_args, ctx) {
      return guard(async () => ({ output: formatMemory(await store.read(ctx.workspaceId)) }));
    },
  };
  const setTool: ToolDefinition = {
    schema: {
      name: 'memory_set',
      description:
        `Remember a short fact about this workspace for future sessions (at most ${MEMORY_MAX_VALUE_CHARS} characters). With key, sets or replaces that entry; ` +
        'without key, adds a new note. An empty value removes the key. Never store secrets.',
      parameters: {
        type: 'object',
        properties: {
          key: { type: 'string', description: 'Entry name, e.g. "test-command". 1–64 of A-Z a-z 0-9 _ - .' },
          value: { type: 'string', description: 'The note; "" removes the key.' },
        },
        required: ['value'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: true,
    async prepare(args, ctx): Promise<PreparedCall> {
      const plan = parseSet(args);
      const current = await store.read(ctx.workspaceId);
      const key = plan.key ?? nextNoteKey(current);
      const before = current.entries[key];
      if (plan.value === '') return { summary: `Forget memory "${key}"`, detail: `- ${key}: ${before ?? '(missing)'}` };
      return {
        summary: `Remember "${key}"`,
        detail: `${before === undefined ? '' : `- ${key}: ${before}\n`}+ ${key}: ${plan.value}`,
      };
    },
    async execute(args, ctx) {
      return guard(async () => {
        const plan = parseSet(args);
        const result = await store.update(ctx.workspaceId, (current) => applyMemorySet(current, plan));
        return { output: result };
      });
    },
  };
  return [getTool, setTool];
}
