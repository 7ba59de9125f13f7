// The bridge stands alone (it may not import plugin-host), so its errors build on net/'s tiny copy of the error
// shape (NetError, the same Symbol.for marker as plugin-host's HarnessError). Inside the process errors are
// BridgeError or NetError instances recognised by that marker (instanceof fails across bundles); on the wire they
// are the plain `{code, message, data}` object every boundary of i uses.
import { NetError, type NetErrorData } from '../net';

export type ErrorData = NetErrorData;

export class BridgeError extends NetError {
  constructor(code: string, message: string, data?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(code, message, data, options);
    this.name = 'BridgeError';
  }
}

/** Turns anything thrown into the plain boundary shape, keeping the code of a BridgeError or NetError (any error with the marker). */
export function toErrorData(error: unknown, fallbackCode = 'E_INTERNAL'): ErrorData {
  if (BridgeError.isInstance(error)) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { code: fallbackCode, message };
}
