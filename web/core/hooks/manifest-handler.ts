// A manifest hook (a bridge worker named in the desktop manifest) as a pipeline handler. Such handlers always run
// after the profile modules (seed 000 §1: hooks chain in manifest order; registration is a trust decision). The
// call gets plain JSON: the data is cloned so a remote worker cannot share objects with the loop.
import type { HookEvent, HookHandler } from './types';

export type RemoteHookCall = (event: HookEvent, data: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

export function manifestHookHandler(
  name: string,
  events: ReadonlyArray<HookEvent | '*'>,
  call: RemoteHookCall,
): HookHandler {
  return {
    name,
    source: 'manifest',
    events,
    handle: (event, data, ctx) => call(event, JSON.parse(JSON.stringify(data)) as Record<string, unknown>, ctx.signal),
  };
}
