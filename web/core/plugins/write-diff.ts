// What the write-approval prompt shows: the unified diff of a plugin's fs.write, bounded like the built-in tools'.
// Its header names `request.path`, the normalised path that will be written (host-ops.ts), never the raw argument.
import type { WriteApprovalRequest } from '../../../plugin-host';
import { unifiedDiff } from '../tools';

export function writeApprovalDiff(request: WriteApprovalRequest): string {
  return unifiedDiff(request.oldText ?? '', request.newText, request.exists ? request.path : null, request.path);
}
