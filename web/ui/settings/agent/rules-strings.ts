// Strings of Settings → Agent → Approval rules (en + zh), merged into en.ts / zh.ts.
export const rulesSettingsEn = {
  'rules.title': 'Approval rules',
  'rules.intro':
    'Standing answers for tool calls, so you are not asked about the same edit again. The rules of this workspace and the rules for all workspaces both apply: a matching Deny wins, then Ask, then Allow. Files that run code when a folder is opened (.vscode/, .envrc, CI workflows…) always ask.',
  'rules.forGlobal': 'Rules for all workspaces',
  'rules.forWorkspace': 'Rules for “{name}”',
  'rules.none': 'No rules yet. “Always allow … in folder/” on an approval card adds one here.',
  'rules.decision': 'Decision',
  'rules.allow': 'Allow',
  'rules.ask': 'Ask',
  'rules.deny': 'Deny',
  'rules.tool': 'Tool',
  'rules.toolHint':
    'A tool name (edit, write, …), group:writes, plugin:<id>, group:bridge, mcp:<server>, or * for every tool.',
  'rules.path': 'Path (optional)',
  'rules.pathHint':
    'A glob on the file a call reads or writes (read, view_image, write, edit, plugin writes), e.g. src/**, secrets/ (the folder and everything in it) or package.json; a link is judged by where it leads too. In Allow, * and ** skip hidden names (.env): name them, e.g. src/.*. Empty: every call.',
  'rules.remove': 'Remove rule {n}',
  'rules.add': 'Add rule',
  'rules.save': 'Save rules',
  'rules.saved': 'Rules saved. The next tool call uses them.',
  'rules.row': 'Rule {n}',
};

export const rulesSettingsZh: Record<keyof typeof rulesSettingsEn, string> = {
  'rules.title': '审批规则',
  'rules.intro':
    '为工具调用预先给出答复，同样的编辑不必反复询问。此工作区的规则和适用于所有工作区的规则同时生效：匹配的“拒绝”优先，其次是“询问”，最后是“允许”。打开文件夹时会运行代码的文件（.vscode/、.envrc、CI 工作流等）始终会询问。',
  'rules.forGlobal': '适用于所有工作区的规则',
  'rules.forWorkspace': '“{name}”的规则',
  'rules.none': '还没有规则。在审批卡片上点“始终允许在 … 中使用”即可在此添加。',
  'rules.decision': '决定',
  'rules.allow': '允许',
  'rules.ask': '询问',
  'rules.deny': '拒绝',
  'rules.tool': '工具',
  'rules.toolHint':
    '工具名（edit、write 等）、group:writes、plugin:<id>、group:bridge、mcp:<服务器> 或 *（所有工具）。',
  'rules.path': '路径（可选）',
  'rules.pathHint':
    '调用所读或所写文件的 glob（read、view_image、write、edit、插件写入），例如 src/**、secrets/（该文件夹及其中一切）或 package.json；符号链接也按其指向判断。“允许”中的 * 和 ** 不匹配隐藏名称（.env）：需明确写出，例如 src/.*。留空表示所有调用。',
  'rules.remove': '删除规则 {n}',
  'rules.add': '添加规则',
  'rules.save': '保存规则',
  'rules.saved': '规则已保存，下一次工具调用即生效。',
  'rules.row': '规则 {n}',
};
