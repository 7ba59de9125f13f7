// Strings of the approval card's review (en + zh): the proposed change in the merge view and "Edit before allowing".
export const reviewEn = {
  'review.views': 'How to show the change',
  'review.diff': 'Diff',
  'review.sideBySide': 'Side by side',
  'review.inline': 'Inline',
  'review.edit': 'Edit before allowing',
  'review.discard': 'Discard my edits',
  'review.editor': 'Proposed content of {path}',
  'review.editing': 'Edit the right side. Allow writes your version, and the agent is told you changed it.',
  'review.edited': 'You changed the proposal: Allow writes your version, and the agent is told.',
  'review.allowMine': 'Allow my version',
  'review.loading': 'Loading the editor…',
  'review.failed': 'The editor could not load ({message}); the diff is shown instead.',
};

export const reviewZh: Record<keyof typeof reviewEn, string> = {
  'review.views': '改动的显示方式',
  'review.diff': '差异',
  'review.sideBySide': '并排',
  'review.inline': '行内',
  'review.edit': '允许前先编辑',
  'review.discard': '放弃我的编辑',
  'review.editor': '{path} 的拟写入内容',
  'review.editing': '编辑右侧内容。允许后将写入你的版本，并告知智能体你做了修改。',
  'review.edited': '你修改了拟写入的内容：允许后将写入你的版本，并告知智能体。',
  'review.allowMine': '允许我的版本',
  'review.loading': '正在加载编辑器…',
  'review.failed': '编辑器未能加载（{message}），改为显示差异。',
};
