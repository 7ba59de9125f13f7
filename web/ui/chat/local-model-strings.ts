// Strings of the composer's in-browser model badge (what the model in this tab is doing), merged into chat-i18n.
export const localModelEn = {
  'local.loading': 'Loading model…',
  'local.generating': '{tps} tok/s',
  'local.memory': '≈ {memory}',
  'local.label': 'Model in this browser: {state}',
} as const;

export const localModelZh: Record<keyof typeof localModelEn, string> = {
  'local.loading': '正在加载模型…',
  'local.generating': '每秒 {tps} 个 token',
  'local.memory': '约 {memory}',
  'local.label': '浏览器内模型：{state}',
};
