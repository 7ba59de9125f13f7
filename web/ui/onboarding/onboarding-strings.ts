// Strings of the first-run model setup (the empty chat's call to action, the three-step dialog, the starter
// prompts), in both languages with the same keys; the compiler checks zh against en.
import type { Locale } from '../i18n/i18n';

export const onboardingEn = {
  'ob.heroTitle': 'Connect a model to start',
  'ob.heroBody':
    'The agent needs a language model to read, explain and change the files in this workspace. Setting one up takes a minute: pick a provider, paste a key, test the connection.',
  'ob.setUp': 'Set up a model',
  'ob.fixTitle': 'The saved model settings cannot be used',
  'ob.fix': 'Fix the model settings',
  'ob.dialogTitle': 'Set up a model',
  'ob.close': 'Close',
  'ob.stepOf': 'Step {n} of 3',
  'ob.step1': 'Provider',
  'ob.step2': 'Connect',
  'ob.step3': 'Done',
  'ob.providerLegend': 'Where should the agent’s model come from?',
  'ob.custom': 'Custom server',
  'ob.line.openai': 'GPT models through Chat Completions, with an OpenAI API key.',
  'ob.line.openai-responses': 'GPT and reasoning models through the Responses API.',
  'ob.line.anthropic': 'Claude models, with an Anthropic API key.',
  'ob.line.deepseek': 'DeepSeek chat and reasoning models, with a DeepSeek key.',
  'ob.line.openrouter': 'Many providers’ models behind one OpenRouter key.',
  'ob.line.ollama': 'Models running on this computer with Ollama. No key.',
  'ob.line.lm-studio': 'Models served by LM Studio on this computer. No key.',
  'ob.line.llama-cpp': 'A llama.cpp llama-server on this computer. No key.',
  'ob.line.custom': 'Any OpenAI-compatible or other server, by its address.',
  'ob.protocol': 'Protocol',
  'ob.protocol.openai': 'OpenAI-compatible (Chat Completions)',
  'ob.protocol.responses': 'OpenAI Responses',
  'ob.protocol.anthropic': 'Anthropic Messages',
  'ob.protocol.deepseek': 'DeepSeek',
  'ob.baseUrl': 'Server address',
  'ob.model': 'Model',
  'ob.modelHint': 'The model’s exact name as the provider spells it.',
  'ob.window': 'Context window (tokens)',
  'ob.windowHint': 'Tokens the model reads at once (the provider’s model page says). Keeps requests within it.',
  'ob.windowMissing': 'Enter the model’s context window (tokens); the provider’s model page lists it.',
  'ob.keyName': 'Key name',
  'ob.key': 'API key',
  'ob.keyHint': 'Kept in this browser’s secrets store as {name} and never shown again.',
  'ob.keyKeep': 'A key named {name} is already stored; leave this empty to keep it.',
  'ob.noKey': 'A local server needs no key.',
  'ob.route': 'Connection',
  'ob.routeDirect': 'Directly from the browser',
  'ob.routeBridge': 'Through the i-bridge',
  'ob.noteCors':
    'The browser calls {provider} directly from {origin}, so the server must allow this site (CORS). {provider} does.',
  'ob.noteCorsUnsure':
    'The browser calls {provider} directly from {origin}. If Test connection reports a network error, the server does not allow this site (CORS): choose “Through the i-bridge” and pair the bridge in Settings → Bridge.',
  'ob.noteCorsCustom':
    'The browser calls your server directly from {origin}: the server must allow this site (CORS). If it cannot, choose “Through the i-bridge” and pair the bridge in Settings → Bridge.',
  'ob.noteLocalNetwork':
    'Chrome may ask whether this site may reach devices on your local network (Local Network Access). Choose Allow, or the connection fails.',
  'ob.noteOllama':
    'Ollama answers only the origins it is told to. Start it with this site allowed, then choose “Directly from the browser”:',
  'ob.noteLmStudio':
    'LM Studio allows browser requests only after “Enable CORS” is switched on in its server settings. Until then, use the i-bridge.',
  'ob.noteBridge':
    'Requests go through the i-bridge on this computer, which works even when the server does not allow this site. Pair it in Settings → Bridge.',
  'ob.copy': 'Copy',
  'ob.copied': 'Copied',
  'ob.test': 'Test connection',
  'ob.testing': 'Testing…',
  'ob.back': 'Back',
  'ob.next': 'Next',
  'ob.done': 'Done',
  'ob.summary': '{model} on {address}',
  'ob.summaryTested': 'The connection works ({ms} ms).',
  'ob.summaryUntested': 'Not tested yet. You can save anyway and test later in Settings → Model.',
  'ob.summaryFailed': 'The last test failed ({code}). You can save anyway and fix it later in Settings → Model.',
  'ob.summaryScope': 'Saved for every workspace in this browser; change it any time in Settings → Model.',
  'ob.readyTitle': 'Ready. Try one of these:',
  'ob.startersLabel': 'Starter prompts',
  'ob.starter.structure': 'Explain this project’s structure',
  'ob.starter.todos': 'Find TODOs and summarise them',
  'ob.starter.tests': 'Write a README section on how to run the tests',
  'ob.starter.file': 'What does {file} do?',
} as const;

export type OnboardingKey = keyof typeof onboardingEn;

export const onboardingZh: Record<OnboardingKey, string> = {
  'ob.heroTitle': '连接一个模型即可开始',
  'ob.heroBody':
    '智能体需要一个语言模型，才能阅读、解释和修改这个工作区里的文件。设置只需一分钟：选择服务商，粘贴密钥，测试连接。',
  'ob.setUp': '配置模型',
  'ob.fixTitle': '已保存的模型设置无法使用',
  'ob.fix': '修正模型配置',
  'ob.dialogTitle': '配置模型',
  'ob.close': '关闭',
  'ob.stepOf': '第 {n} 步，共 3 步',
  'ob.step1': '服务商',
  'ob.step2': '连接',
  'ob.step3': '完成',
  'ob.providerLegend': '智能体使用哪里的模型？',
  'ob.custom': '自定义服务器',
  'ob.line.openai': '通过 Chat Completions 使用 GPT 模型，需要 OpenAI API 密钥。',
  'ob.line.openai-responses': '通过 Responses API 使用 GPT 和推理模型。',
  'ob.line.anthropic': 'Claude 模型，需要 Anthropic API 密钥。',
  'ob.line.deepseek': 'DeepSeek 对话和推理模型，需要 DeepSeek 密钥。',
  'ob.line.openrouter': '用一个 OpenRouter 密钥使用多家服务商的模型。',
  'ob.line.ollama': '用 Ollama 在本机运行的模型，无需密钥。',
  'ob.line.lm-studio': 'LM Studio 在本机提供的模型，无需密钥。',
  'ob.line.llama-cpp': '本机运行的 llama.cpp llama-server，无需密钥。',
  'ob.line.custom': '任何兼容 OpenAI 或其他协议的服务器，填写它的地址。',
  'ob.protocol': '协议',
  'ob.protocol.openai': '兼容 OpenAI（Chat Completions）',
  'ob.protocol.responses': 'OpenAI Responses',
  'ob.protocol.anthropic': 'Anthropic Messages',
  'ob.protocol.deepseek': 'DeepSeek',
  'ob.baseUrl': '服务器地址',
  'ob.model': '模型',
  'ob.modelHint': '模型的准确名称，与服务商的写法一致。',
  'ob.window': '上下文窗口（token）',
  'ob.windowHint': '模型一次能读取的 token 数（见服务商的模型说明），请求不会超出它。',
  'ob.windowMissing': '请填写模型的上下文窗口（token 数），服务商的模型说明里有。',
  'ob.keyName': '密钥名称',
  'ob.key': 'API 密钥',
  'ob.keyHint': '以 {name} 为名保存在本浏览器的密钥库中，之后不再显示。',
  'ob.keyKeep': '已保存名为 {name} 的密钥；留空即可继续使用它。',
  'ob.noKey': '本地服务器不需要密钥。',
  'ob.route': '连接方式',
  'ob.routeDirect': '浏览器直接连接',
  'ob.routeBridge': '经由 i-bridge',
  'ob.noteCors': '浏览器从 {origin} 直接访问 {provider}，因此服务器必须允许本站点的请求（CORS）。{provider} 允许。',
  'ob.noteCorsUnsure':
    '浏览器从 {origin} 直接访问 {provider}。如果“测试连接”报告网络错误，说明服务器不允许本站点（CORS）：请选择“经由 i-bridge”，并在 设置 → 桥接 中完成配对。',
  'ob.noteCorsCustom':
    '浏览器从 {origin} 直接访问你的服务器：服务器必须允许本站点的请求（CORS）。如果做不到，请选择“经由 i-bridge”，并在 设置 → 桥接 中完成配对。',
  'ob.noteLocalNetwork':
    'Chrome 可能会询问是否允许本站点访问你局域网中的设备（本地网络访问）。请选择“允许”，否则连接会失败。',
  'ob.noteOllama': 'Ollama 只响应它被告知的来源。请用下面的命令启动它以允许本站点，然后选择“浏览器直接连接”：',
  'ob.noteLmStudio':
    '只有在 LM Studio 的服务器设置中打开“Enable CORS”后，它才允许浏览器请求。在此之前请使用 i-bridge。',
  'ob.noteBridge': '请求经由本机的 i-bridge 发出，即使服务器不允许本站点也能工作。请在 设置 → 桥接 中完成配对。',
  'ob.copy': '复制',
  'ob.copied': '已复制',
  'ob.test': '测试连接',
  'ob.testing': '测试中…',
  'ob.back': '上一步',
  'ob.next': '下一步',
  'ob.done': '完成',
  'ob.summary': '{address} 上的 {model}',
  'ob.summaryTested': '连接正常（{ms} 毫秒）。',
  'ob.summaryUntested': '尚未测试。也可以先保存，稍后在 设置 → 模型 中测试。',
  'ob.summaryFailed': '上次测试失败（{code}）。也可以先保存，稍后在 设置 → 模型 中修正。',
  'ob.summaryScope': '保存后对本浏览器中的所有工作区生效；随时可以在 设置 → 模型 中修改。',
  'ob.readyTitle': '准备好了。试试这些：',
  'ob.startersLabel': '开始提示',
  'ob.starter.structure': '解释这个项目的结构',
  'ob.starter.todos': '找出所有 TODO 并总结',
  'ob.starter.tests': '为 README 写一节，说明如何运行测试',
  'ob.starter.file': '{file} 是做什么的？',
};

export type OnboardingTranslate = (key: OnboardingKey, params?: Record<string, string | number>) => string;

export function onboardingTranslator(locale: () => Locale): OnboardingTranslate {
  return (key, params) => {
    const template = locale() === 'zh' ? onboardingZh[key] : onboardingEn[key];
    return params
      ? template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
      : template;
  };
}
