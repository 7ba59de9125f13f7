// JSON schemas of the hook data shapes (seed 000 §6), checked after every handler so a bad handler is named at
// the point it broke the data, not three steps later in a provider. Only the fields the core relies on are
// strict; extra fields are tolerated so modules can carry their own context along the chain.
import { compileSchema, type SchemaCheck } from '../contracts';
import type { HookEvent } from './types';

const imagePart = {
  type: 'object',
  required: ['type', 'image_url'],
  properties: {
    type: { const: 'image_url' },
    image_url: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
  },
};
const textPart = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text: { type: 'string' } },
};
const content = { anyOf: [{ type: 'string' }, { type: 'array', items: { anyOf: [textPart, imagePart] } }] };
const toolCall = {
  type: 'object',
  required: ['id', 'type', 'function'],
  properties: {
    id: { type: 'string' },
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name', 'arguments'],
      properties: { name: { type: 'string' }, arguments: { type: 'string' } },
    },
  },
};

export const messageSchema = {
  type: 'object',
  required: ['role'],
  properties: { role: { enum: ['system', 'user', 'assistant', 'tool'] } },
  allOf: [
    {
      if: { properties: { role: { const: 'system' } } },
      then: { required: ['content'], properties: { content: { type: 'string' } } },
    },
    { if: { properties: { role: { const: 'user' } } }, then: { required: ['content'], properties: { content } } },
    {
      if: { properties: { role: { const: 'assistant' } } },
      then: {
        required: ['content'],
        properties: { content: { type: ['string', 'null'] }, tool_calls: { type: 'array', items: toolCall } },
      },
    },
    {
      if: { properties: { role: { const: 'tool' } } },
      then: {
        required: ['tool_call_id', 'content'],
        properties: { tool_call_id: { type: 'string' }, content: { type: 'string' } },
      },
    },
  ],
};
const messages = { type: 'array', items: messageSchema };
const obj = { type: 'object' };
const meta = { type: 'object' };
const estimate = {
  type: 'object',
  required: ['fits', 'estimate', 'trigger', 'tool_budget'],
  properties: {
    fits: { type: 'boolean' },
    estimate: { type: 'number' },
    trigger: { type: 'number' },
    tool_budget: { type: 'number' },
  },
};

const shapes: Record<HookEvent, { required: string[]; properties: Record<string, unknown> }> = {
  session_load: { required: ['messages'], properties: { messages } },
  system_prompt: { required: ['prompt'], properties: { prompt: { type: 'string' } } },
  user_input: { required: ['content'], properties: { content } },
  before_turn: { required: ['messages'], properties: { messages } },
  context_budget: { required: ['history', 'result'], properties: { history: messages, result: estimate } },
  compact_plan: {
    required: ['history', 'cut'],
    properties: { history: messages, cut: { type: ['integer', 'null'], minimum: 0 } },
  },
  before_compact: {
    required: ['messages', 'cut'],
    properties: {
      messages,
      cut: { type: 'integer', minimum: 0 },
      prompt: { type: 'string' },
      summary: { type: 'string' },
      images: { type: 'array', items: imagePart },
    },
  },
  after_compact: { required: ['summary'], properties: { summary: { type: 'string' } } },
  before_compact_commit: { required: ['messages', 'summary'], properties: { messages, summary: { type: 'string' } } },
  before_request: {
    required: ['url', 'body', 'request_meta'],
    properties: { url: { type: 'string' }, body: obj, request_meta: meta },
  },
  request_retry: { required: ['request_meta'], properties: { request_meta: meta } },
  after_response: { required: ['response', 'request_meta'], properties: { request_meta: meta } },
  before_tool: {
    required: ['id', 'name', 'arguments'],
    properties: { id: { type: 'string' }, name: { type: 'string' }, arguments: { type: 'string' } },
  },
  tool_approval: {
    required: ['name', 'arguments', 'external', 'decision'],
    properties: {
      name: { type: 'string' },
      arguments: obj,
      external: { type: 'boolean' },
      decision: { enum: ['allow', 'ask', 'deny'] },
    },
  },
  after_tool: {
    required: ['name', 'output', 'error'],
    properties: {
      name: { type: 'string' },
      output: { type: 'string' },
      error: { type: 'boolean' },
      images: { type: 'array', items: imagePart },
    },
  },
  before_save: { required: ['messages', 'path'], properties: { messages, path: { type: 'string' } } },
  after_save: { required: ['messages', 'path'], properties: { messages, path: { type: 'string' } } },
  finish: { required: ['messages'], properties: { messages } },
};

const cache = new Map<HookEvent, SchemaCheck>();

/** The compiled shape check of one event's data (compiled on first use). */
export function hookDataCheck(event: HookEvent): SchemaCheck {
  let check = cache.get(event);
  if (!check) {
    check = compileSchema({ type: 'object', ...shapes[event] }, 'data');
    cache.set(event, check);
  }
  return check;
}
