// The loop's stream function with provider operations: the transport as usual, its adapter wrapped per model call —
// by withOperationPlans (a custom worker's plans, under provider_operations) and by withProviderFiles (built-in
// Files). Each call gets one operation budget (8 within 180 s) and the call's signal, shared by everything the call
// runs. When the model request fails because a referenced file is gone (expired or deleted at the vendor: "file not
// found"), the registry forgets the file_ids that request used and the call is made once more, which uploads again
// (or sends base64) — under the same budget, so the retry cannot double the step's operations. Only that one case,
// only once, and only before anything streamed.
import type { StreamFn } from '../contracts';
import { builtinAdapter, type StreamEvent } from '../providers';
import { streamCall, type TransportStreamOptions } from '../transport';
import { withProviderFiles, type ProviderFilesContext } from './files-adapter';
import { newBudget } from './operations';
import { withOperationPlans, type PlanContext } from './operation-plans';

export function providerFilesStream(
  options: TransportStreamOptions & { files: ProviderFilesContext | null; plans?: PlanContext | null },
): StreamFn {
  const { adapter, files, plans, ...transport } = options;
  return (call) => {
    const budget = newBudget();
    // Only a custom adapter has plans (prepareStep); a built-in one is looked up inside the stream, as streamModel does.
    const planned = adapter && plans ? withOperationPlans(adapter, plans, call.signal, budget) : adapter;
    const once = (): AsyncIterable<StreamEvent> =>
      streamCall(
        transport,
        call,
        files ? withProviderFiles(planned ?? builtinAdapter(call.input.protocol), files, call.signal, budget) : planned,
      );
    if (!files) return once();
    return (async function* () {
      const held: StreamEvent[] = [];
      for await (const event of once()) {
        if (event.type === 'start' && held.length === 0) {
          held.push(event);
          continue;
        }
        if (
          held.length &&
          event.type === 'error' &&
          files.lastUsed.length &&
          files.policy.vendor &&
          notFound(event, files)
        ) {
          await files.registry.forget(files.lastUsed);
          held.length = 0;
          yield* once();
          return;
        }
        yield* held.splice(0);
        yield event;
      }
      yield* held;
    })();
  };
}

function notFound(event: Extract<StreamEvent, { type: 'error' }>, files: ProviderFilesContext): boolean {
  const d = (event.error.data ?? {}) as { status?: unknown; provider_message?: unknown };
  return (
    typeof d.status === 'number' &&
    files.policy.vendor!.isFileNotFound(d.status, String(d.provider_message ?? event.error.message))
  );
}
