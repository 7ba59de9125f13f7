// Errors inside a process are HarnessError instances; errors that cross a Worker, the bridge or a CLI boundary
// are the plain `{code, message, data}` shape. `instanceof` fails across bundles and workers, so the class is
// recognised by a Symbol.for marker (see STYLE.md §8).

/** The plain form every error takes when it crosses a boundary. */
export interface ErrorData {
  /** Stable, upper-case code such as `E_PATH_ESCAPE`. Never reworded once shipped. */
  code: string;
  /** One or two sentences a person can act on: what happened, why, how to fix it. */
  message: string;
  data?: Record<string, unknown>;
}

const marker = Symbol.for('i.harness-error');

export class HarnessError extends Error {
  readonly [marker] = true;
  readonly code: string;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: string, message: string, data?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.code = code;
    this.data = data;
  }

  static isInstance(value: unknown): value is HarnessError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  toJSON(): ErrorData {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** Turns anything thrown into the plain boundary shape, keeping a HarnessError's code. */
export function toErrorData(error: unknown, fallbackCode = 'E_INTERNAL'): ErrorData {
  if (HarnessError.isInstance(error)) return error.toJSON();
  if (isErrorData(error))
    return { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) };
  const message = error instanceof Error ? error.message : String(error);
  return { code: fallbackCode, message };
}

export function isErrorData(value: unknown): value is ErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.message === 'string';
}
