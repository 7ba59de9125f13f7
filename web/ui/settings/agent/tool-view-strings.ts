// Strings of Settings → Agent → Tools the agent sees (en + zh), merged into en.ts / zh.ts.
export const toolViewSettingsEn = {
  'toolView.title': 'Tools the agent sees',
  'toolView.intro':
    'Which tools are described to the model in each request of this workspace. Fewer tools leave more room in the context and help small models choose. Approval still applies to every call.',
  'toolView.pickWorkspace': 'Tools are chosen per workspace: pick a workspace in “Applies to” above.',
  'toolView.forWorkspace': 'Tools for “{name}”',
  'toolView.all': 'All tools',
  'toolView.allHint': 'Every built-in, plugin, bridge and MCP tool that is on.',
  'toolView.some': 'Only these',
  'toolView.someHint': 'The groups you tick and the tools you name.',
  'toolView.groups': 'Groups',
  'toolView.group.files': 'read, write, edit, view images, read long results',
  'toolView.group.search': 'glob and search',
  'toolView.group.web': 'web fetch and web search',
  'toolView.group.memory': 'workspace memory',
  'toolView.group.skills': 'skills',
  'toolView.group.bridge': 'tools of the paired i-bridge',
  'toolView.more': 'More tools and groups',
  'toolView.moreHint': 'Tool names, plugin:<id> or mcp:<server>, separated by spaces or commas.',
  'toolView.count': '{count} of at most {max} tools · {size} of at most {maxSize}',
  'toolView.atTurnStart': 'Checked when a turn starts: {list}.',
  'toolView.limitsNote':
    'A tool or group that is not there, more than {max} tools or more than {maxSize} of descriptions stops the turn before anything is sent, saying which.',
  'toolView.save': 'Save tools',
  'toolView.saved': 'Saved. The next request uses these tools.',
};

export const toolViewSettingsZh: Record<keyof typeof toolViewSettingsEn, string> = {
  'toolView.title': '智能体可见的工具',
  'toolView.intro':
    '此工作区的每次请求向模型描述哪些工具。工具越少，上下文空间越多，小模型也更容易选对。每次调用仍需经过审批。',
  'toolView.pickWorkspace': '工具按工作区选择：请先在上方“适用于”中选择一个工作区。',
  'toolView.forWorkspace': '“{name}”的工具',
  'toolView.all': '全部工具',
  'toolView.allHint': '所有已启用的内置、插件、桥接和 MCP 工具。',
  'toolView.some': '仅以下工具',
  'toolView.someHint': '勾选的分组以及填写的工具。',
  'toolView.groups': '分组',
  'toolView.group.files': '读取、写入、编辑、查看图片、读取长结果',
  'toolView.group.search': 'glob 与搜索',
  'toolView.group.web': '网页抓取与网页搜索',
  'toolView.group.memory': '工作区记忆',
  'toolView.group.skills': '技能',
  'toolView.group.bridge': '已配对 i-bridge 的工具',
  'toolView.more': '更多工具和分组',
  'toolView.moreHint': '工具名称、plugin:<id> 或 mcp:<server>，用空格或逗号分隔。',
  'toolView.count': '{count} 个工具（上限 {max}）· {size}（上限 {maxSize}）',
  'toolView.atTurnStart': '在回合开始时检查：{list}。',
  'toolView.limitsNote':
    '若某个工具或分组不存在、超过 {max} 个工具或描述超过 {maxSize}，回合会在发送任何内容前停止，并说明原因。',
  'toolView.save': '保存工具',
  'toolView.saved': '已保存。下一次请求将使用这些工具。',
};
