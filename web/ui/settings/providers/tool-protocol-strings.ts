// The Model tab's tool-protocol switch (issue 17), in both languages (spread into web/ui/chat/chat-i18n.ts).
// Option labels stay short (a 390 px select cuts long ones); the hint says when to choose which.
export const toolProtocolEn = {
  toolProtocol: 'Tool calling',
  toolProtocolNative: 'Native tool calling',
  toolProtocolJson: 'JSON actions',
  toolProtocolHint:
    'Native uses the provider’s tool calling. JSON actions are for models or servers without it: no tools field is sent; the model gets the tools as text and answers with one JSON object per step.',
} as const;

export const toolProtocolZh: Record<keyof typeof toolProtocolEn, string> = {
  toolProtocol: '工具调用',
  toolProtocolNative: '原生工具调用',
  toolProtocolJson: 'JSON 动作',
  toolProtocolHint:
    '原生：使用服务商自带的工具调用。JSON 动作：适用于不支持工具调用的模型或服务器——请求中不发送 tools 字段，模型以文本形式获得工具说明，每一步回复一个 JSON 对象。',
};
