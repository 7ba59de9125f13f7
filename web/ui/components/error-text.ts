import { codeOf, messageOf } from '../state/errors';

/** A failure as the person reads it in a panel or dialog: its stable code, then the sentence that says what to do. */
export function errorText(error: unknown, fallbackCode = 'E_INTERNAL'): string {
  return `${codeOf(error) ?? fallbackCode}: ${messageOf(error)}`;
}
