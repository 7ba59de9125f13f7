// The Model tab's tool-protocol switch (issue 17), in both languages (spread into web/ui/chat/chat-i18n.ts).
export const toolProtocolEn = {
  toolProtocol: 'Tool calling',
  toolProtocolNative: 'Native (the provider’s tool calling)',
  toolProtocolJson: 'JSON actions (for models without tool calling)',
  toolProtocolHint: 'JSON actions: no tools field is sent; the model gets the tools as text and answers with one JSON object per step. Use it when the model or server does not support tool calling.',
} as const;

export const toolProtocolZh: Record<keyof typeof toolProtocolEn, string> = {
  toolProtocol: '工具调用',
  toolProtocolNative: '原生（服务商的工具调用）',
  toolProtocolJson: 'JSON 动作（适用于不支持工具调用的模型）',
  toolProtocolHint: 'JSON 动作：请求中不发送 tools 字段，模型以文本形式获得工具说明，每一步回复一个 JSON 对象。模型或服务器不支持工具调用时使用。',
};
