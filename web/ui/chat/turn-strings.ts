// Strings of the two-tab read-only banner and the Continue action after a stop (en + zh).
export const turnEn = {
  readOnlyTitle: 'Open in another tab',
  readOnlyBody:
    'Another tab is writing this session. You see it here live, read-only; only one tab writes a session at a time.',
  takeOver: 'Take over',
  continueTurn: 'Continue',
  continueHint: 'The answer was stopped. Continue asks the agent to go on from there.',
  editKept: 'The conversation before the edit is kept as “{title}”.',
  showEarlier: 'Show {count} earlier messages',
  attachedFiles: 'Attached files',
};

export const turnZh: typeof turnEn = {
  readOnlyTitle: '已在另一个标签页中打开',
  readOnlyBody: '另一个标签页正在写入此会话。这里实时显示，只读；同一时间只有一个标签页可以写入会话。',
  takeOver: '接管',
  continueTurn: '继续',
  continueHint: '回答已停止。点击“继续”让智能体从停下的地方接着做。',
  editKept: '编辑前的对话已保留为“{title}”。',
  showEarlier: '显示更早的 {count} 条消息',
  attachedFiles: '附加的文件',
};
