// Settings → Model → Images and Files (provider Files, seed 003), in both languages (spread into
// web/ui/chat/chat-i18n.ts like the tool-protocol strings).
export const providerFilesEn = {
  filesImages: 'Images',
  filesImagesBase64: 'Send inline (base64)',
  filesImagesFiles: 'Upload once (provider Files)',
  filesImagesHint:
    'Inline: every request carries each image again. Upload once: each image goes to the provider’s Files API once and later requests reference it by file_id; this also needs “Allow provider operations”. Saved at once, for every workspace.',
  filesOperations: 'Allow provider operations',
  filesOperationsHint:
    'Lets the app send extra requests to this provider’s address (uploads, listing and deleting files): at most 8 per step, 16 MiB each, never retried. Saved with the model.',
  filesUnsupported: 'This protocol keeps images inline: {reason}',
  filesNeedsOperations: 'Upload once needs “Allow provider operations” too (then Save); until then images go inline.',
  filesNeedsFiles: 'Provider operations are allowed, but images are sent inline, so nothing is uploaded.',
  filesRemote: 'Files at the provider',
  filesRemoteHint: 'The files this provider account holds. “Uploaded here” marks the ones this workspace uploaded.',
  filesLoad: 'Show files',
  filesLoading: 'Loading…',
  filesNone: 'No files at the provider.',
  filesAge: 'uploaded {age}',
  filesOurs: 'Uploaded here',
  filesDelete: 'Delete',
  filesConfirm: 'Delete {id} at the provider? This cannot be undone.',
  filesConfirmDelete: 'Delete file',
  filesCancel: 'Cancel',
  filesDeleted: 'Deleted {id}.',
  filesNoWorkspace: 'Open a workspace to see which files it uploaded.',
  filesMore: 'The provider holds more files than these {count}: the list stops after {pages} pages.',
} as const;

export const providerFilesZh: Record<keyof typeof providerFilesEn, string> = {
  filesImages: '图片',
  filesImagesBase64: '内联发送（Base64）',
  filesImagesFiles: '上传一次（服务商 Files）',
  filesImagesHint:
    '内联：每个请求都重新携带每张图片。上传一次：每张图片只上传到服务商的 Files API 一次，之后的请求以 file_id 引用；还需勾选“允许服务商附加操作”。立即保存，对所有工作区生效。',
  filesOperations: '允许服务商附加操作',
  filesOperationsHint:
    '允许应用向该服务商地址发送附加请求（上传、列出和删除文件）：每步最多 8 次，每次不超过 16 MiB，从不自动重试。随模型一起保存。',
  filesUnsupported: '该协议的图片保持内联：{reason}',
  filesNeedsOperations: '“上传一次”还需要勾选“允许服务商附加操作”（然后保存）；在此之前图片仍内联发送。',
  filesNeedsFiles: '已允许服务商附加操作，但图片仍内联发送，因此不会上传任何文件。',
  filesRemote: '服务商上的文件',
  filesRemoteHint: '该服务商账户中的文件。“本工作区上传”标出本工作区上传的文件。',
  filesLoad: '显示文件',
  filesLoading: '加载中…',
  filesNone: '服务商上没有文件。',
  filesAge: '{age}上传',
  filesOurs: '本工作区上传',
  filesDelete: '删除',
  filesConfirm: '删除服务商上的 {id}？此操作无法撤销。',
  filesConfirmDelete: '删除文件',
  filesCancel: '取消',
  filesDeleted: '已删除 {id}。',
  filesNoWorkspace: '打开一个工作区，即可看到它上传了哪些文件。',
  filesMore: '服务商上的文件多于这里列出的 {count} 个：列表最多读取 {pages} 页。',
};
