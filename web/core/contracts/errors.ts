// The error type lives in the bottom layer (plugin-host) so that every layer above shares one marker; so do the
// helpers that show untrusted text safely (bounded quotes, visible control characters).
export {
  HarnessError,
  toErrorData,
  isErrorData,
  quoteUntrusted,
  escapeControls,
  findInvisibleChar,
  codePointLabel,
  escapeProse,
  stringifyForTerminal,
} from '../../../plugin-host';
export type { ErrorData } from '../../../plugin-host';
