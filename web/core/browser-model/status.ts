// What the in-browser model is doing (loading, generating at N tokens/s, its memory), published on a
// BroadcastChannel: the model runs in the agent Worker and the page shows the numbers, and a same-origin channel
// needs no new method on the Worker's interface. Best effort: where BroadcastChannel is missing nothing is sent.
export interface BrowserModelStatus {
  state: 'loading' | 'generating' | 'idle';
  model: string;
  /** The memory estimate of the loaded model (bytes). */
  memoryBytes?: number;
  nCtx?: number;
  threads?: number;
  tokensPerSecond?: number;
}

export const STATUS_CHANNEL = 'i-browser-model';

let channel: BroadcastChannel | null | undefined;
let last: BrowserModelStatus | null = null;
const ASK = 'i-browser-model:ask';

export function publishStatus(status: BrowserModelStatus): void {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(STATUS_CHANNEL) : null;
    // A page that opens later asks for the latest status (a channel does not replay).
    if (channel) channel.onmessage = (e: MessageEvent) => e.data === ASK && last && channel?.postMessage(last);
  }
  last = status;
  channel?.postMessage(status);
}

/** Calls `on` with the latest status and every one published from any thread of this origin; returns the unsubscribe. */
export function watchStatus(on: (s: BrowserModelStatus) => void): () => void {
  if (typeof BroadcastChannel !== 'function') return () => undefined;
  const c = new BroadcastChannel(STATUS_CHANNEL);
  c.onmessage = (e: MessageEvent<BrowserModelStatus | string>) => typeof e.data === 'object' && on(e.data);
  c.postMessage(ASK);
  return () => c.close();
}
