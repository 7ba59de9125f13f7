// What a turn of the app agent is given from the stored settings: the model settings of a config, the approval
// settings of a mode and its rules, and a new session's title.

import { budgetOf } from '../agent';
import type { ModelSettings } from '../agent';
import { RuleSet, scopedRules, type ApprovalSettings } from '../approval';
import type { ModelConfig } from '../config';
import type { ContentPart } from '../contracts';
import type { AgentSettings } from './agent-settings';

export function modelSettingsOf(config: ModelConfig): ModelSettings {
  return {
    protocol: config.protocol,
    base_url: config.base_url,
    model: config.model,
    max_tokens: config.max_tokens,
    use_max_tokens: config.use_max_tokens,
    extra_body: config.extra_body,
    budget: budgetOf(config),
    // JSON actions for models without native tool calling (Settings → Model → Tool calling).
    ...(config.tool_protocol ? { tool_protocol: config.tool_protocol } : {}),
    // Usage anchors are bound to the provider worker binding (seed 003); part of the profile's cache key too.
    provider: config.provider,
  };
}

export function approvalSettingsOf(mode: AgentSettings['approval'], rules?: AgentSettings['rules']): ApprovalSettings {
  const scoped = rules ? scopedRules(rules.workspace, rules.global) : [];
  return {
    mode: mode === 'auto' ? 'auto' : 'ask',
    deny_tools: [],
    yolo: mode === 'yolo',
    ...(scoped.length ? { rules: new RuleSet(scoped) } : {}),
  };
}

export const titleOf = (content: string | ContentPart[]) => {
  // The first text part is what the person typed; later ones are attachments (mentioned files).
  const text = typeof content === 'string' ? content : (content.find((p) => p.type === 'text')?.text ?? '');
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || 'New session';
};
