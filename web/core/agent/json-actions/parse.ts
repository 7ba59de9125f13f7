// Reading a model's reply under the JSON action protocol (seed 002 "Json 协议", issue 17). The reply must be ONE
// JSON object: `{"type": "tool_call", "name", "arguments"}`, `{"type": "final", "content"}` or
// `{"type": "ask_user", "question"}`. Anything else is a protocol error the loop answers in the tool-result
// envelope, so the model can correct itself; nothing here throws.
//
// The rule for surrounding prose:
// - bare: the whole reply (whitespace trimmed) is the object; prose before or after a bare object is refused
//   (E_JSON_ACTION_PROSE), since "Sure: {...}" cannot be told apart from an object quoted while thinking aloud;
// - fenced: exactly one ```json block holds the object; prose outside that one block is accepted and ignored
//   (small models like to introduce their block), two or more ```json blocks are several actions (refused).
// Keys are strict: an unknown key, a missing field or a field of the wrong type is refused with its name.

export type JsonAction =
  | { type: 'tool_call'; name: string; arguments: Record<string, unknown> }
  | { type: 'final'; content: string }
  | { type: 'ask_user'; question: string };

export type JsonActionError = { code: JsonActionCode; message: string };
export type ParsedAction = { ok: true; action: JsonAction } | ({ ok: false } & JsonActionError);

export type JsonActionCode =
  | 'E_JSON_ACTION_NO_JSON'
  | 'E_JSON_ACTION_PROSE'
  | 'E_JSON_ACTION_SEVERAL'
  | 'E_JSON_ACTION_INVALID_JSON'
  | 'E_JSON_ACTION_NOT_OBJECT'
  | 'E_JSON_ACTION_TYPE'
  | 'E_JSON_ACTION_FIELDS'
  | 'E_JSON_ACTION_UNKNOWN_TOOL'
  | 'E_JSON_ACTION_ARGUMENTS';

const SHAPES =
  'Reply with exactly one JSON object, alone or inside one ```json block: {"type": "tool_call", "name": TOOL, "arguments": {...}}, {"type": "final", "content": TEXT} or {"type": "ask_user", "question": TEXT}.';
const fail = (code: JsonActionCode, what: string): ParsedAction => ({ ok: false, code, message: `${what} ${SHAPES}` });

// One opening fence line: ```json (any case), optional spaces, a newline. Closing: a line starting with ```.
const FENCE_OPEN = /```json[ \t]*\r?\n/gi;

/** Parses one reply. `tools`: the names the model was shown (a call to any other name is refused). */
export function parseJsonAction(reply: string, tools: ReadonlySet<string>): ParsedAction {
  const text = reply.trim();
  const opens = [...text.matchAll(FENCE_OPEN)];
  let body: string;
  if (opens.length > 1)
    return fail('E_JSON_ACTION_SEVERAL', `The reply has ${opens.length} \`\`\`json blocks; one action per reply.`);
  if (opens.length === 1) {
    const start = opens[0]!.index! + opens[0]![0].length;
    const end = text.indexOf('```', start);
    if (end < 0) return fail('E_JSON_ACTION_INVALID_JSON', 'The ```json block is not closed with ```.');
    body = text.slice(start, end).trim();
  } else {
    body = text;
  }
  // Whole body is JSON: judge it as it is (an array or a string is JSON but not an action object).
  const whole = tryParse(body);
  if (whole.ok) return checkAction(whole.value, tools);
  const objects = topLevelObjects(body);
  if (objects.count === 0) {
    return fail('E_JSON_ACTION_NO_JSON', body === '' ? 'The reply is empty.' : 'The reply contains no JSON object.');
  }
  if (objects.count > 1)
    return fail('E_JSON_ACTION_SEVERAL', `The reply holds ${objects.count} JSON objects; one action per reply.`);
  if (objects.first > 0 || objects.last < body.length) {
    return fail(
      opens.length === 1 ? 'E_JSON_ACTION_INVALID_JSON' : 'E_JSON_ACTION_PROSE',
      opens.length === 1
        ? 'The ```json block holds text besides the object.'
        : 'The reply has text around the JSON object.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return fail(
      'E_JSON_ACTION_INVALID_JSON',
      `The JSON object does not parse (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return checkAction(value, tools);
}

function checkAction(value: unknown, tools: ReadonlySet<string>): ParsedAction {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('E_JSON_ACTION_NOT_OBJECT', 'The reply is JSON but not an object.');
  const o = value as Record<string, unknown>;
  const only = (keys: string[]): ParsedAction | null => {
    const extra = Object.keys(o).filter((k) => !keys.includes(k));
    return extra.length
      ? fail(
          'E_JSON_ACTION_FIELDS',
          `Unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')} in a "${String(o.type)}" action.`,
        )
      : null;
  };
  switch (o.type) {
    case 'tool_call': {
      const bad = only(['type', 'name', 'arguments']);
      if (bad) return bad;
      if (typeof o.name !== 'string' || o.name === '')
        return fail('E_JSON_ACTION_FIELDS', 'A "tool_call" needs "name", the tool\'s name as a string.');
      if (!tools.has(o.name)) {
        const known = [...tools].sort().slice(0, 20).join(', ');
        return fail(
          'E_JSON_ACTION_UNKNOWN_TOOL',
          `No tool named ${JSON.stringify(o.name)} is available${known ? ` (available: ${known}${tools.size > 20 ? ', …' : ''})` : ''}.`,
        );
      }
      const args = o.arguments;
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return fail('E_JSON_ACTION_ARGUMENTS', `The "arguments" of ${o.name} must be a JSON object.`);
      return { ok: true, action: { type: 'tool_call', name: o.name, arguments: args as Record<string, unknown> } };
    }
    case 'final': {
      const bad = only(['type', 'content']);
      if (bad) return bad;
      if (typeof o.content !== 'string')
        return fail('E_JSON_ACTION_FIELDS', 'A "final" action needs "content", the answer as a string.');
      return { ok: true, action: { type: 'final', content: o.content } };
    }
    case 'ask_user': {
      const bad = only(['type', 'question']);
      if (bad) return bad;
      if (typeof o.question !== 'string' || o.question.trim() === '')
        return fail('E_JSON_ACTION_FIELDS', 'An "ask_user" action needs "question", a non-empty string.');
      return { ok: true, action: { type: 'ask_user', question: o.question } };
    }
    default:
      return fail('E_JSON_ACTION_TYPE', `Unknown action type ${JSON.stringify(o.type ?? null)}.`);
  }
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Counts the balanced top-level `{...}` spans of `text` (strings and escapes respected), in one linear pass, and
 * where the first starts and the last ends. Used to tell "no object", "several objects" and "prose around it"
 * apart before parsing; JSON.parse then judges the one object.
 */
function topLevelObjects(text: string): { count: number; first: number; last: number } {
  let depth = 0;
  let inString = false;
  let count = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === '{') {
      if (depth === 0 && first < 0) first = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        count++;
        last = i + 1;
      }
    }
  }
  // An object opened and never closed is still an (invalid) object: JSON.parse reports it.
  if (depth > 0) return { count: count + 1, first: first, last: text.length };
  return { count, first: Math.max(first, 0), last };
}
