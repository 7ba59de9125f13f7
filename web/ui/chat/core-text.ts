// Sentences that come from web/core in English (provider errors, preset route notes), said in the person's
// language. The core's English text stays the single English source; Chinese is written here from the error's
// code and data, keeping the provider's own words verbatim. A code without a translation shows the core's text.
import type { ErrorData } from '../../core/contracts';
import type { ProviderPreset } from '../../core/page';
import type { Locale } from '../i18n/i18n';

type Data = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

const ZH_ERRORS: Record<string, (d: Data) => string | undefined> = {
  E_PROVIDER_AUTH: (d) =>
    `服务商拒绝了这个密钥（${str(d.status)}：${str(d.provider_message)}）。请在“密钥”中检查 API 密钥，并确认它可以使用这个模型。`,
  E_RATE_LIMITED: (d) =>
    `服务商正在限制这个密钥的请求频率（429：${str(d.provider_message)}）。请稍候再试，或检查套餐的限额。`,
  E_CONTEXT_OVERFLOW: (d) =>
    `对话超出了模型的上下文窗口（${str(d.status)}：${str(d.provider_message)}）。请压缩会话，或调低 max_tokens。`,
  E_PROVIDER_HTTP: (d) =>
    d.status === 404
      ? `服务商返回 404（${str(d.provider_message)}）。请检查 base_url 和模型名称。`
      : `服务商返回 ${str(d.status)}：${str(d.provider_message) || '没有详细信息'}。`,
  E_REDIRECT_REFUSED: (d) =>
    `${str(d.origin)} 返回了重定向。模型请求从不跟随重定向（密钥可能泄露）；请把 base_url 设为最终地址。`,
  E_NETWORK: (d) =>
    d.route === 'bridge'
      ? `无法连接 i-bridge 来转发发往 ${str(d.origin)} 的请求。请确认 i-bridge 正在运行并已配对，然后重试。`
      : `发往 ${str(d.origin)} 的请求在收到任何回答前就失败了。浏览器不说明原因，常见原因有：服务商不允许本应用的请求（CORS）——把该服务商的路由改为经由桥接；` +
        `服务器未运行或 base_url 有误——检查地址并确认服务器在运行；Chrome 的本地网络访问提示被拒绝——在网站设置中允许；` +
        `从 https:// 页面访问 http:// 地址（混合内容）——改用 https 或桥接。`,
  E_ABORTED: () => '模型请求已取消。',
  E_SESSION_CORRUPT: (d) => {
    const intact = typeof d.intactEntries === 'number' ? d.intactEntries : 0;
    const covered = typeof d.checkpointSeq === 'number' ? `（检查点覆盖条目 0–${d.checkpointSeq}）` : '';
    return (
      `会话无法加载：有已保存的条目缺失或已损坏${covered}。${intact > 0 ? `条目 0–${intact - 1} 完好` : '没有完好的条目'}；没有任何内容被修改或删除。` +
      `${intact > 0 ? '可以把完好的部分恢复为新会话（此会话保持不变），或删除此会话' : '可以删除此会话'}（不影响其他会话），也可以保留它并新建会话。`
    );
  },
};

/** The error's sentence in the person's language (the core's own text in English or for an unknown code). */
export function errorText(error: ErrorData, locale: Locale): string {
  if (locale !== 'zh') return error.message;
  const data = (error.data ?? {}) as Data;
  return ZH_ERRORS[error.code]?.(data) ?? error.message;
}

const ZH_ROUTE_NOTES: Record<string, string> = {
  openai: 'OpenAI API 允许浏览器请求（CORS）。',
  'openai-responses': 'OpenAI API 允许浏览器请求（CORS）。',
  anthropic: '请求带上 anthropic-dangerous-direct-browser-access: true 时，Anthropic 允许浏览器请求（已自动添加）。',
  deepseek: '一般认为允许浏览器请求；如果“测试连接”报告网络错误，请改用桥接。',
  openrouter: 'OpenRouter 允许浏览器请求（CORS）。',
  ollama: '除非 OLLAMA_ORIGINS 包含本应用，Ollama 会拒绝其他来源；经由桥接可以避开。',
  'lm-studio': 'LM Studio 只有打开“Enable CORS”后才回应 CORS；桥接在任何情况下都可用。',
  'llama-cpp': 'llama-server 允许任何来源；Chrome 可能会询问是否允许访问本地网络。',
};

/** A preset's note on why its route is what it is, in the person's language. */
export function routeNoteText(preset: ProviderPreset, locale: Locale): string {
  return (locale === 'zh' ? ZH_ROUTE_NOTES[preset.id] : undefined) ?? preset.routeNote;
}
