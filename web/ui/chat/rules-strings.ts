// Strings of approval rules in the chat (en + zh): the card's "Always allow … in folder/" and what the tool card says
// about the rule that decided.
export const rulesEn = {
  'rule.allowIn': 'Always allow {name} in {folder}',
  'rule.allowOn': 'Always allow {name} on {path}',
  'rule.allowInHint':
    'Adds a rule for this workspace (Settings → Agent → Approval rules); files that always ask still ask.',
  'rule.saveFailed': 'Allowed once, but the rule could not be saved ({code}): {message}',
  'rule.decided': 'Decided by the rule “{rule}” ({scope})',
  'rule.scope.workspace': 'this workspace',
  'rule.scope.global': 'all workspaces',
  'rule.outsideUndo':
    'This tool ran outside the app (i-bridge or an MCP server): files it changed are not in the undo history and the Changes panel.',
};

export const rulesZh: Record<keyof typeof rulesEn, string> = {
  'rule.allowIn': '始终允许在 {folder} 中使用 {name}',
  'rule.allowOn': '始终允许对 {path} 使用 {name}',
  'rule.allowInHint': '为此工作区添加一条规则（设置 → 智能体 → 审批规则）；总是需要询问的文件仍会询问。',
  'rule.saveFailed': '已允许本次，但规则未能保存（{code}）：{message}',
  'rule.decided': '由规则“{rule}”决定（{scope}）',
  'rule.scope.workspace': '此工作区',
  'rule.scope.global': '所有工作区',
  'rule.outsideUndo': '此工具在应用之外运行（i-bridge 或 MCP 服务器）：它改动的文件不在撤销记录和“更改”面板中。',
};
