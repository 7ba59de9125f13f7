// Binds the pipeline's three transport events to the provider layer's TransportHooks seam. `request_meta` travels
// beside the body and is never merged into it: it never reaches the model (seed 000 §6).
import type { TransportHooks } from '../contracts';
import type { HookPipeline } from './pipeline';

export function transportHooksOf(pipeline: HookPipeline, signal: AbortSignal): TransportHooks {
  const ctx = { signal };
  return {
    async beforeRequest(data) {
      const out = await pipeline.run('before_request', { ...data, request_meta: { ...data.request_meta } }, ctx);
      return { url: out.url, body: out.body, request_meta: out.request_meta };
    },
    async requestRetry(data) {
      // Its return value never changes the request (the transport replays the same prepared request).
      await pipeline.run('request_retry', { ...data }, ctx);
    },
    async afterResponse(data) {
      const out = await pipeline.run('after_response', { ...data }, ctx);
      return { response: out.response };
    },
  };
}
