// What a checkpoint must satisfy (seed 000 §6 before_save: the full history is validated before saving): every
// message has the shape of its role, and every assistant tool call is answered by exactly one tool message
// before the conversation moves on (tool image messages may follow the answers). The shape check runs on the
// messages not yet saved; the pairing check is a cheap pass over all of them.
import { HarnessError } from '../contracts';
import { messageSchema } from '../hooks';
import type { Message } from '../contracts';
import { compileSchema } from '../contracts';

const checkMessage = compileSchema(messageSchema, 'message');

export function historyProblems(messages: readonly Message[], shapeFrom = 0): string[] {
  const problems: string[] = [];
  for (let i = shapeFrom; i < messages.length && problems.length < 5; i++) {
    for (const p of checkMessage(messages[i])) problems.push(p.replace(/^At message/, `At messages[${i}]`));
  }
  let open = new Set<string>();
  let opener = -1;
  messages.forEach((m, i) => {
    if (problems.length >= 5) return;
    if (m.role === 'tool') {
      if (!open.delete(m.tool_call_id))
        problems.push(`At messages[${i}]: tool result "${m.tool_call_id}" answers no open tool call`);
      return;
    }
    if (open.size > 0 && !(m.role === 'user' && m._meta?.kind === 'tool_images')) {
      problems.push(`At messages[${i}]: tool call(s) ${[...open].join(', ')} of messages[${opener}] have no result`);
      open = new Set();
    }
    if (m.role === 'assistant' && m.tool_calls?.length) {
      open = new Set(m.tool_calls.map((c) => c.id));
      opener = i;
    }
  });
  if (open.size > 0 && problems.length < 5)
    problems.push(`At messages[${opener}]: tool call(s) ${[...open].join(', ')} have no result`);
  return problems;
}

export function isConsistent(messages: readonly Message[]): boolean {
  return historyProblems(messages, messages.length).length === 0;
}

export function assertValidHistory(messages: readonly Message[], shapeFrom = 0): void {
  const problems = historyProblems(messages, shapeFrom);
  if (problems.length > 0) {
    throw new HarnessError(
      'E_SESSION_HISTORY_INVALID',
      `The conversation is not in a state that can be saved: ${problems.join('; ')}. The last checkpoint is kept.`,
      { problems },
    );
  }
}
