export { HarnessError, toErrorData, isErrorData } from './harness-error';
export type { ErrorData } from './harness-error';
export {
  findInvisibleChar,
  isInvisibleCodePoint,
  codePointLabel,
  escapeControls,
  quoteUntrusted,
  QUOTE_MAX_CHARS,
} from './untrusted-text';
export type { InvisibleChar } from './untrusted-text';
export { escapeProse, stringifyForTerminal } from './terminal-output';
