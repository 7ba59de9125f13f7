// net/ sits below both the bridge and web/core and may import neither, so it has its own tiny error class. It
// carries the same Symbol.for('i.harness-error') marker, `code`, `data` and `toJSON()` as plugin-host's
// HarnessError (bridge/errors.ts's BridgeError extends it): HarnessError's and BridgeError's isInstance and
// toErrorData recognise a NetError and keep its code (E_WEB_*, E_ABORTED), in the bridge's HTTP answers and in
// headless `i`'s tool results alike (bridge/web-fetch.test.ts and web/core/modules/web/node-web-fetch.test.ts pin
// this). `instanceof` fails across bundles; the marker does not.

/** The plain form an error takes when it crosses a boundary (the same shape as BridgeError's and HarnessError's). */
export interface NetErrorData {
  /** Stable upper-case code such as `E_WEB_TIMEOUT`. Never reworded once shipped. */
  code: string;
  /** What happened and what to do about it. */
  message: string;
  data?: Record<string, unknown>;
}

const marker = Symbol.for('i.harness-error');

export class NetError extends Error {
  readonly [marker] = true;
  readonly code: string;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: string, message: string, data?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetError';
    this.code = code;
    this.data = data;
  }

  static isInstance(value: unknown): value is NetError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  toJSON(): NetErrorData {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
