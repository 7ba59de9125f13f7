// The tool-result envelope of the JSON action protocol (seed 002: "带 jingwei_tool_result 标记的用户角色数据信封").
// A user-role message whose whole text is this one object, marked as untrusted data; tool text never goes into a
// system message. Serialised with JSON.stringify (no spaces), keys in this order, so the text is reproducible.

export const ENVELOPE_MARK = 'jingwei_tool_result';

/** The exact envelope text: `{"jingwei_tool_result":{"name":…,"ok":…,"output":…},"untrusted_tool_data":true}`. */
export function toolResultEnvelope(name: string, ok: boolean, output: string): string {
  return JSON.stringify({ [ENVELOPE_MARK]: { name, ok, output }, untrusted_tool_data: true });
}

/** The name a protocol error is reported under (it answers no tool: the reply itself was not a valid action). */
export const PROTOCOL_ERROR_NAME = 'json_action_protocol';
