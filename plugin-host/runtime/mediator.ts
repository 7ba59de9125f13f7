// Judges the frames a plugin returns, one at a time, in order: shape, host-call ids (1, 2, 3, … no gap, repeat or
// decrease), the 128-call limit, known operations with exactly their argument fields, final text size, nothing after
// a terminal frame. Pure and synchronous so every rule is unit-testable without a worker. A violation is an abort
// (HarnessError with an E_RUN_* code); refusing a host call is host-ops.ts's job, not this one's.
//
// Everything a frame carries is untrusted and may be megabytes long (a frame is up to 16 MiB): messages and data
// quote it only through quoteUntrusted (a short prefix plus its length) and never serialise a value, so no frame
// can make an abort larger than a few kilobytes or make building it costly.

import { HarnessError, quoteUntrusted } from '../errors';
import { AbortCode } from './codes';
import { HOST_OP_ARGS, type HostCallRequest, type HostOp, type PluginFrame } from './frames';
import { MAX_HOST_CALLS, MAX_OUTPUT_BYTES } from './limits';

const encoder = new TextEncoder();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when `value`'s own keys are exactly `keys` (distinct): the allocation-free check of the common case. */
function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let own = 0;
  for (const k in value) if (Object.hasOwn(value, k)) own++;
  if (own !== keys.length) return false;
  for (const k of keys) if (!Object.hasOwn(value, k)) return false;
  return true;
}

/** At most this many unexpected keys are named in a message, each quoted briefly; the rest are counted. */
const KEYS_SHOWN = 3;
const KEY_QUOTE_CHARS = 60;

/** Unexpected and missing fields, with the unexpected ones (untrusted names) quoted and capped. */
function fieldReport(
  value: Record<string, unknown>,
  keys: readonly string[],
): { text: string; data: Record<string, unknown> } | undefined {
  const extra: string[] = [];
  let extraCount = 0;
  for (const k in value) {
    if (!Object.hasOwn(value, k) || keys.includes(k)) continue;
    if (extraCount++ < KEYS_SHOWN) extra.push(quoteUntrusted(k, KEY_QUOTE_CHARS));
  }
  const missing = keys.filter((k) => !Object.hasOwn(value, k));
  if (extraCount === 0 && missing.length === 0) return undefined;
  const more = extraCount > extra.length ? ` and ${extraCount - extra.length} more` : '';
  const text = `${extraCount ? `; unexpected ${extra.join(', ')}${more}` : ''}${missing.length ? `; missing ${missing.join(', ')}` : ''}`;
  return { text, data: { extra, extraCount, missing } };
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[], where: string): void {
  if (hasExactly(value, keys)) return;
  const report = fieldReport(value, keys);
  if (report) {
    throw new HarnessError(
      AbortCode.BAD_FRAME,
      `At ${where}: expected exactly the fields ${keys.join(', ')}${report.text}. Build the plugin with the harness SDK.`,
      { where, ...report.data },
    );
  }
}

const CALL_FIELDS = ['type', 'request'] as const;
const REQUEST_FIELDS = ['id', 'op', 'args'] as const;
const DONE_FIELDS = ['type', 'output'] as const;
const ERROR_FIELDS = ['type', 'error'] as const;

export class FrameMediator {
  private nextId = 1;
  private terminal = false;

  constructor(
    private readonly limits: { maxHostCalls: number; maxOutputBytes: number } = {
      maxHostCalls: MAX_HOST_CALLS,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    },
  ) {}

  /** Host calls accepted so far. */
  get hostCalls(): number {
    return this.nextId - 1;
  }

  /** Validates one frame; throws a HarnessError with an E_RUN_* code on any violation. */
  accept(frame: unknown): PluginFrame {
    if (this.terminal) {
      throw new HarnessError(
        AbortCode.AFTER_DONE,
        'The plugin produced a frame after its final done/error frame. Fix the plugin: an invocation ends at done or error.',
      );
    }
    if (!isRecord(frame) || typeof frame.type !== 'string') {
      throw new HarnessError(
        AbortCode.BAD_FRAME,
        'At frame: expected an object with a "type" of host_call, done or error.',
      );
    }
    switch (frame.type) {
      case 'host_call':
        return { type: 'host_call', request: this.acceptCall(frame) };
      case 'done':
      case 'error': {
        const field = frame.type === 'done' ? 'output' : 'error';
        exactKeys(frame, frame.type === 'done' ? DONE_FIELDS : ERROR_FIELDS, 'frame');
        const text = frame[field];
        if (typeof text !== 'string')
          throw new HarnessError(AbortCode.BAD_FRAME, `At frame.${field}: expected a string.`);
        const bytes = encoder.encode(text).length;
        if (bytes > this.limits.maxOutputBytes) {
          throw new HarnessError(
            AbortCode.OUTPUT_TOO_LARGE,
            `The plugin's final ${field} is ${bytes} bytes, over the ${this.limits.maxOutputBytes}-byte limit. Return less text.`,
            { bytes },
          );
        }
        this.terminal = true;
        return frame.type === 'done' ? { type: 'done', output: text } : { type: 'error', error: text };
      }
      default:
        throw new HarnessError(
          AbortCode.BAD_FRAME,
          `At frame.type: expected host_call, done or error, got ${quoteUntrusted(frame.type, 40)}.`,
        );
    }
  }

  private acceptCall(frame: Record<string, unknown>): HostCallRequest {
    exactKeys(frame, CALL_FIELDS, 'frame');
    const request = frame.request;
    if (!isRecord(request)) throw new HarnessError(AbortCode.BAD_FRAME, 'At frame.request: expected an object.');
    exactKeys(request, REQUEST_FIELDS, 'frame.request');
    const { id, op, args } = request;
    if (this.nextId > this.limits.maxHostCalls) {
      throw new HarnessError(
        AbortCode.TOO_MANY_CALLS,
        `The plugin made more than ${this.limits.maxHostCalls} host calls in one invocation. Do less per call, or split the work.`,
        { limit: this.limits.maxHostCalls },
      );
    }
    if (id !== this.nextId) {
      throw new HarnessError(
        AbortCode.HOST_ID,
        `Host call id ${quoteUntrusted(id, 40)} is out of sequence: expected ${this.nextId}. Ids run 1, 2, 3, … with no gap or repeat.`,
        { expected: this.nextId, got: typeof id === 'number' ? id : quoteUntrusted(id, 40) },
      );
    }
    if (typeof op !== 'string' || !Object.hasOwn(HOST_OP_ARGS, op)) {
      throw new HarnessError(
        AbortCode.UNKNOWN_OP,
        `Unknown host operation ${quoteUntrusted(op, 60)}. Known: ${Object.keys(HOST_OP_ARGS).join(', ')}.`,
      );
    }
    const fields = HOST_OP_ARGS[op as HostOp];
    if (!isRecord(args))
      throw new HarnessError(
        AbortCode.BAD_ARGS,
        `At frame.request.args: ${op} takes an object with ${fields.join(', ')}.`,
      );
    if (!hasExactly(args, fields)) this.refuseArgs(op, fields, args);
    for (const field of fields) {
      if (field !== 'value' && typeof args[field] !== 'string') {
        throw new HarnessError(AbortCode.BAD_ARGS, `At frame.request.args.${field}: ${op} needs a string.`, {
          op,
          field,
        });
      }
    }
    this.nextId++;
    return { id: id as number, op: op as HostOp, args };
  }

  private refuseArgs(op: string, fields: readonly string[], args: Record<string, unknown>): void {
    const report = fieldReport(args, fields);
    if (report)
      throw new HarnessError(AbortCode.BAD_ARGS, `${op} takes exactly ${fields.join(', ')}${report.text}.`, {
        op,
        ...report.data,
      });
  }
}
