export { HarnessError, toErrorData, isErrorData } from './harness-error';
export type { ErrorData } from './harness-error';
