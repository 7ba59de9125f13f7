// Builds loop deps around a scripted model for tests.
import { DEFAULT_APPROVAL, type ApprovalSettings, type AskPerson } from '../../approval';
import { HookPipeline } from '../../hooks';
import type { ContextState } from '../../modules/context';
import type { Message } from '../../contracts/messages';
import { ToolRegistry } from '../../tools/registry';
import type { ToolDefinition } from '../../contracts/tools';
import { runTurn } from '../loop';
import type { AgentEvent, CheckpointSink, ModelSettings, TurnResult } from '../types';
import { memoryFs } from './memory-fs';
import { scriptedModel, type Reply } from './scripted-stream';

export const MODEL: ModelSettings = { protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm', max_tokens: 1000, use_max_tokens: false, extra_body: {}, budget: null };

export interface Run {
  result: TurnResult;
  events: AgentEvent[];
  model: ReturnType<typeof scriptedModel>;
  fs: ReturnType<typeof memoryFs>;
  saves: Message[][];
}

export async function runScripted(
  replies: Reply[],
  opts: {
    tools?: ToolDefinition[];
    hooks?: HookPipeline;
    approval?: Partial<ApprovalSettings>;
    askPerson?: AskPerson;
    files?: Record<string, string>;
    fs?: ReturnType<typeof memoryFs>;
    history?: Message[];
    content?: string;
    maxSteps?: number;
    signal?: AbortSignal;
    model?: Partial<ModelSettings>;
    onEvent?: (e: AgentEvent) => void;
    systemPrompt?: string;
    context?: () => Promise<ContextState> | ContextState;
    /** A compaction-only turn (TurnInput.compact). */
    compact?: { focus?: string };
    keepFailedPrompt?: boolean;
  } = {},
): Promise<Run> {
  const tools = new ToolRegistry();
  for (const t of opts.tools ?? []) tools.register(t);
  const model = scriptedModel(replies);
  const fs = opts.fs ?? memoryFs(opts.files);
  const saves: Message[][] = [];
  const session: CheckpointSink = { path: 'test-session', save: async (m) => void saves.push(structuredClone(m)) };
  const stream = runTurn(
    { model: { ...MODEL, ...opts.model }, history: opts.history ?? [], content: opts.content ?? 'go', ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}), ...(opts.systemPrompt ? { systemPrompt: opts.systemPrompt } : {}), ...(opts.compact ? { compact: opts.compact } : {}), ...(opts.keepFailedPrompt ? { keepFailedPrompt: true } : {}) },
    {
      stream: model.stream,
      tools,
      hooks: opts.hooks ?? new HookPipeline(),
      approval: { ...DEFAULT_APPROVAL, ...opts.approval },
      ...(opts.askPerson ? { askPerson: opts.askPerson } : {}),
      fs,
      workspaceId: 'ws',
      session,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.context ? { context: opts.context } : {}),
    },
  );
  const events: AgentEvent[] = [];
  for await (const e of stream) {
    events.push(e);
    opts.onEvent?.(e);
  }
  return { result: await stream.result(), events, model, fs, saves };
}
