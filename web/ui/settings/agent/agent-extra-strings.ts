// Strings of Settings → Agent's fields that match headless i's config files (deny_tools, the compaction prompt, the
// cache namespace and target, web_search), merged into agentEn / agentZh (strings.ts).
export const agentExtraEn = {
  'agent.denyTools': 'Tools that never run',
  'agent.denyToolsHint':
    'Tool names separated by commas, e.g. write, web_fetch. They are refused in every approval mode, including Yolo (approval.json deny_tools).',
  'agent.compactPrompt': 'Compaction prompt',
  'agent.compactPromptHint':
    'Leave empty to use the built-in instructions for the summary. A replacement has 1–32000 characters.',
  'agent.cacheNamespace': 'Statistics name',
  'agent.cacheNamespaceHint': 'Keeps the statistics of one workload apart: letters, digits, “.”, “_”, “:” or “-”.',
  'agent.cacheTarget': 'Target hit ratio',
  'agent.cacheTargetHint': 'From 0 to 1 (0.99 = 99%); Settings → Usage compares the measured ratio with it.',
  'agent.webSearch': 'Web search service',
  'agent.webSearchHint':
    'The web_search tool, as the "search" object of web.json: url (https), method GET or POST, params with {query} and {limit}, results {items, title, url, snippet}, max_results. The key is named in auth.secret and read from Settings → Keys. The service must allow requests from this page (CORS). Empty: no web_search.',
  'agent.bindings': 'Run on the paired i-bridge',
  'agent.bindingsHint':
    'A ticked feature runs only on the bridge paired in Settings → Bridge: its tools and hooks come from the bridge’s manifest (same tool names), and the built-in one is off. If the bridge does not serve it, turns do not start; if it fails, the turn stops with its error.',
  'agent.bindModule': 'Run {module} on the paired i-bridge',
  'agent.skillWorkspaces': 'Skills from other folders',
  'agent.skillWorkspacesHint':
    'Each chosen workspace’s folder is read (never written) as a folder of skills: every sub-folder with a SKILL.md becomes a skill, like a skills root of headless i.',
  'agent.skillWorkspacesNone': 'Add another workspace whose folder holds skills to use them here.',
  'agent.skillWorkspaceUse': 'Use skills from {name}',
} as const;

export const agentExtraZh: Record<keyof typeof agentExtraEn, string> = {
  'agent.denyTools': '永不运行的工具',
  'agent.denyToolsHint':
    '以逗号分隔的工具名，例如 write, web_fetch。在任何审批模式下（包括 Yolo）都会被拒绝（approval.json 的 deny_tools）。',
  'agent.compactPrompt': '压缩提示词',
  'agent.compactPromptHint': '留空则使用内置的总结说明。替换内容为 1–32000 个字符。',
  'agent.cacheNamespace': '统计名称',
  'agent.cacheNamespaceHint': '将某一工作负载的统计单独存放：字母、数字、“.”、“_”、“:” 或 “-”。',
  'agent.cacheTarget': '目标命中率',
  'agent.cacheTargetHint': '0 到 1（0.99 即 99%）；“设置 → 用量”会将实测命中率与之比较。',
  'agent.webSearch': '网页搜索服务',
  'agent.webSearchHint':
    'web_search 工具，即 web.json 中的 "search" 对象：url（https）、method 为 GET 或 POST、含 {query} 与 {limit} 的 params、results {items, title, url, snippet}、max_results。密钥名写在 auth.secret 中，从“设置 → 密钥”读取。该服务必须允许来自此页面的请求（CORS）。留空：不提供 web_search。',
  'agent.bindings': '在已配对的 i-bridge 上运行',
  'agent.bindingsHint':
    '勾选的功能只在“设置 → 桥接”中配对的桥接上运行：其工具与 hook 来自桥接的清单（工具名相同），内置实现关闭。桥接未提供时对话不会开始；运行失败时对话以其错误停止。',
  'agent.bindModule': '在已配对的 i-bridge 上运行 {module}',
  'agent.skillWorkspaces': '来自其他文件夹的技能',
  'agent.skillWorkspacesHint':
    '所选工作区的文件夹会被当作技能文件夹读取（从不写入）：其中每个含 SKILL.md 的子文件夹都是一个技能，与无界面 i 的技能根目录相同。',
  'agent.skillWorkspacesNone': '添加另一个存放技能的工作区文件夹，即可在这里使用其中的技能。',
  'agent.skillWorkspaceUse': '使用 {name} 中的技能',
};
