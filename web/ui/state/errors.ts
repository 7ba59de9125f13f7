import { HarnessError, isErrorData } from '../../core/contracts';

/** The sentence to show for anything thrown: HarnessError messages are written for people already. */
export function messageOf(error: unknown): string {
  if (HarnessError.isInstance(error) || isErrorData(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function codeOf(error: unknown): string | undefined {
  if (HarnessError.isInstance(error) || isErrorData(error)) return error.code;
  return undefined;
}
