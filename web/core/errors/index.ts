// The error type lives in the bottom layer (plugin-host) so that every layer above shares one marker.
export { HarnessError, toErrorData, isErrorData } from '../../../plugin-host';
export type { ErrorData } from '../../../plugin-host';
