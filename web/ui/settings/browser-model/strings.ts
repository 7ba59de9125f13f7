// Settings → Model → In this browser (issue 21), English and Chinese. Self-contained so the section adds no key to
// the shared dictionaries; `zh` is typed by `en`, so a missing translation fails typecheck.
export const browserModelEn = {
  title: 'In this browser',
  offer: 'Or run a small model in this browser: no key, no server',
  intro:
    'Run a small GGUF model inside this tab with llama.cpp (WebAssembly): no key, no server, and no network once it is downloaded. Tools go through JSON actions.',
  stored: 'Stored models',
  none: 'No model stored yet.',
  size: 'Size',
  sha: 'SHA-256',
  use: 'Use this model',
  inUse: 'In use',
  remove: 'Delete',
  removed: 'Deleted {name}: {size} freed.',
  addFile: 'Add a .gguf file',
  chooseFile: 'Choose file…',
  noFileChosen: 'No file chosen',
  adding: 'Copying {name}: {done} of {total}',
  urlLabel: 'Download from an HTTPS address',
  download: 'Download',
  resume: 'Resume',
  stop: 'Stop',
  downloading: 'Downloading {name}: {done} of {total}',
  partial: '{name}: {done} of {total} downloaded — download again to resume.',
  context: 'Context window for this model (tokens)',
  contextHint: 'Memory grows with it. The model was trained for {trained}; 4096 suits most small models.',
  estimate: 'Needs about {need}; this tab can use about {available}.',
  suggested: 'Suggested small models (listed {date})',
  suggestedHint: 'Names and links only: the weights come from the publisher when you press Download.',
  licence: 'Licence',
  page: 'Model page',
  saved: '{name} is the model now (context {ctx}).',
  running: '{state} · {tps} tokens/s · memory ≈ {memory} · context {ctx} · {threads} thread(s)',
  stateLoading: 'Loading the model',
  stateGenerating: 'Generating',
  stateIdle: 'Ready',
};

export const browserModelZh: typeof browserModelEn = {
  title: '在此浏览器中运行',
  offer: '或者在此浏览器中运行一个小模型:无需密钥,无需服务器',
  intro:
    '用 llama.cpp(WebAssembly)在此标签页内运行一个小型 GGUF 模型:无需密钥,无需服务器,下载后无需网络。工具通过 JSON 动作调用。',
  stored: '已存储的模型',
  none: '尚未存储任何模型。',
  size: '大小',
  sha: 'SHA-256',
  use: '使用此模型',
  inUse: '使用中',
  remove: '删除',
  removed: '已删除 {name}:释放 {size}。',
  addFile: '添加 .gguf 文件',
  chooseFile: '选择文件…',
  noFileChosen: '未选择文件',
  adding: '正在复制 {name}:{done} / {total}',
  urlLabel: '从 HTTPS 地址下载',
  download: '下载',
  resume: '继续下载',
  stop: '停止',
  downloading: '正在下载 {name}:{done} / {total}',
  partial: '{name}:已下载 {done} / {total} — 再次下载即可从中断处继续。',
  context: '此模型的上下文窗口(token)',
  contextHint: '内存随之增长。该模型训练时的上下文为 {trained};多数小模型用 4096 即可。',
  estimate: '约需 {need};此标签页约可使用 {available}。',
  suggested: '推荐的小模型(列于 {date})',
  suggestedHint: '这里只有名称和链接:按“下载”后才从发布者处获取权重。',
  licence: '许可证',
  page: '模型页面',
  saved: '现在使用 {name}(上下文 {ctx})。',
  running: '{state} · 每秒 {tps} 个 token · 内存约 {memory} · 上下文 {ctx} · {threads} 个线程',
  stateLoading: '正在加载模型',
  stateGenerating: '正在生成',
  stateIdle: '就绪',
};

export type BrowserModelKey = keyof typeof browserModelEn;

export function browserModelText(locale: () => string) {
  return (key: BrowserModelKey, params?: Record<string, string | number>) => {
    const template = (locale() === 'zh' ? browserModelZh : browserModelEn)[key];
    return params
      ? template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
      : template;
  };
}
