// One model call: forwards stream events to the UI and returns the terminal outcome. The injected stream never
// throws by contract; if one does anyway, the throw becomes an error outcome here.
import { toErrorData, type ErrorData } from '../contracts';
import type { ModelResult } from '../contracts';
import type { AgentEvent, ModelCall, StreamFn } from './types';

export type CallOutcome = { ok: true; result: ModelResult } | { ok: false; error: ErrorData };

export async function callModel(
  stream: StreamFn,
  call: ModelCall,
  step: number,
  emit: (e: AgentEvent) => void,
): Promise<CallOutcome> {
  try {
    for await (const event of stream(call)) {
      emit({ type: 'model', step, event });
      if (event.type === 'done') return { ok: true, result: event.result };
      if (event.type === 'error') return { ok: false, error: event.error };
    }
  } catch (error) {
    return { ok: false, error: toErrorData(error, 'E_MODEL_STREAM') };
  }
  if (call.signal.aborted) return { ok: false, error: { code: 'E_ABORTED', message: 'The turn was stopped.' } };
  return {
    ok: false,
    error: {
      code: 'E_MODEL_STREAM',
      message: 'The model stream ended without a final result. Try again; if it repeats, check the provider.',
    },
  };
}
