// The bridge stands alone (it may not import plugin-host), so it carries its own tiny copy of the error shape.
// Inside the process errors are BridgeError instances recognised by a Symbol.for marker (instanceof fails across
// bundles); on the wire they are the plain `{code, message, data}` object every boundary of i uses.

export interface ErrorData {
  /** Stable upper-case code such as `E_WORKER_TIMEOUT`. Never reworded once shipped. */
  code: string;
  /** What happened and what to do about it. */
  message: string;
  data?: Record<string, unknown>;
}

const marker = Symbol.for('i.harness-error');

export class BridgeError extends Error {
  readonly [marker] = true;
  readonly code: string;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: string, message: string, data?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BridgeError';
    this.code = code;
    this.data = data;
  }

  static isInstance(value: unknown): value is BridgeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  toJSON(): ErrorData {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** Turns anything thrown into the plain boundary shape, keeping a BridgeError's code. */
export function toErrorData(error: unknown, fallbackCode = 'E_INTERNAL'): ErrorData {
  if (BridgeError.isInstance(error)) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { code: fallbackCode, message };
}
