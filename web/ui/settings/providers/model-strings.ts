// Settings → Model: section titles, the help under each field, and where the context window came from (en + zh,
// spread into web/ui/chat/chat-i18n.ts). Labels say what a setting does; wire names appear only in the help, where a
// person comparing with a provider's documentation needs them.
export const modelFormEn = {
  sectionConnection: 'Connection',
  sectionConnectionHint: 'Which service answers, and the key it needs.',
  sectionLimits: 'Length and memory',
  sectionLimitsHint: 'How much the model reads and writes in one turn.',
  sectionAdvanced: 'Advanced',
  sectionAdvancedHint: 'Leave as they are unless the provider’s documentation says otherwise.',
  presetHint: 'Fills in the address and the usual choices for a provider. Custom: any other server.',
  protocolHint: 'The kind of API the server speaks; most local servers speak OpenAI’s Chat Completions.',
  protocolOpenai: 'OpenAI Chat Completions',
  protocolResponses: 'OpenAI Responses',
  protocolAnthropic: 'Anthropic Messages',
  protocolDeepseek: 'DeepSeek',
  baseUrlHint: 'The API’s address, for example https://api.openai.com/v1 or http://127.0.0.1:11434/v1.',
  modelHint: 'The model’s name exactly as the provider writes it.',
  maxTokensHint: 'The most the model may write in one reply.',
  useMaxTokensHint:
    'For servers that reject max_completion_tokens (DeepSeek, OpenRouter and most local servers); the preset sets it.',
  windowFromPreset: 'Filled in from the {source} table (as of {date}).',
  windowFromServer: 'Filled in from the server’s model list ({field}, {from}).',
  windowSaved: 'Saved with this model.',
  windowTyped: 'Your value.',
  windowLooking: 'Looking it up in the server’s model list…',
  windowRequired:
    'Required: neither the preset nor the server’s model list states this model’s window, and i needs it to keep the conversation within what the model can read. Find it on the model’s page.',
  windowRequiredCustom:
    'Required: a custom protocol has no model list to read it from, and i needs it to keep the conversation within what the model can read. Find it on the model’s page.',
  windowListFailed: 'The model list could not be read: {error}',
  windowMissing:
    'E_CONTEXT_WINDOW_REQUIRED: Type the context window of {model} (in tokens, from the model’s page), then save again.',
  thresholdHint:
    'When the conversation fills this share of the window, older messages are summarised. 0.8 = at 80 % (the default).',
  outputReserveHint: 'Kept free in the window for the reply. Empty: the longest reply above.',
  routeHint: 'How requests reach the server.',
  chooseFile: 'Choose file…',
  noFileChosen: 'No file chosen',
} as const;

export const modelFormZh: Record<keyof typeof modelFormEn, string> = {
  sectionConnection: '连接',
  sectionConnectionHint: '由哪个服务回答，以及它需要的密钥。',
  sectionLimits: '长度与记忆',
  sectionLimitsHint: '模型在一轮中读取和写出多少内容。',
  sectionAdvanced: '高级',
  sectionAdvancedHint: '除非服务商的文档另有说明，否则保持原样即可。',
  presetHint: '为服务商填好地址和常用选项。自定义：任何其他服务器。',
  protocolHint: '服务器使用的 API 类型；大多数本地服务器使用 OpenAI 的 Chat Completions。',
  protocolOpenai: 'OpenAI Chat Completions',
  protocolResponses: 'OpenAI Responses',
  protocolAnthropic: 'Anthropic Messages',
  protocolDeepseek: 'DeepSeek',
  baseUrlHint: 'API 的地址，例如 https://api.openai.com/v1 或 http://127.0.0.1:11434/v1。',
  modelHint: '模型名称，与服务商的写法完全一致。',
  maxTokensHint: '模型一次回复最多可写的长度。',
  useMaxTokensHint:
    '用于不接受 max_completion_tokens 的服务器（DeepSeek、OpenRouter 和大多数本地服务器）；预设会替你选好。',
  windowFromPreset: '已按 {source} 表填写（截至 {date}）。',
  windowFromServer: '已按服务器的模型列表填写（{field}，{from}）。',
  windowSaved: '随此模型一起保存。',
  windowTyped: '你填写的值。',
  windowLooking: '正在服务器的模型列表中查找…',
  windowRequired:
    '必填：预设和服务器的模型列表都没有给出此模型的窗口大小，而 i 需要它来让对话不超出模型能读取的范围。请在模型的介绍页面查找。',
  windowRequiredCustom:
    '必填：自定义协议没有可读取的模型列表，而 i 需要它来让对话不超出模型能读取的范围。请在模型的介绍页面查找。',
  windowListFailed: '无法读取模型列表：{error}',
  windowMissing: 'E_CONTEXT_WINDOW_REQUIRED：请填写 {model} 的上下文窗口（token 数，见模型介绍页面），然后再保存。',
  thresholdHint: '对话占满窗口的这一比例时，较早的消息会被总结。0.8 即 80 %（默认）。',
  outputReserveHint: '在窗口中为回复预留的空间。留空：使用上面的最长回复。',
  routeHint: '请求如何到达服务器。',
  chooseFile: '选择文件…',
  noFileChosen: '未选择文件',
};
