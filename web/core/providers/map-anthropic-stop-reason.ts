import type { FinishReason } from '../contracts';

/** Anthropic `stop_reason` → the host's chat-shaped finish reason. */
export function mapAnthropicStopReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    // `pause_turn`: a server tool paused a long turn; the turn is not finished, so no tool may run.
    case 'pause_turn':
      return 'incomplete';
    default:
      return typeof reason === 'string' && reason ? reason : 'stop';
  }
}
