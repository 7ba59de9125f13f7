// Strings of the Files panel's tree, its zip download and the zip import of the New workspace dialog, in both
// languages. Kept with a lookup of their own (filesText) so this slice never edits the shared dictionaries other
// work of the same wave is changing; zh is typed against en, so a missing key fails the typecheck.
import type { Locale } from '../i18n/i18n';

export const filesEn = {
  'tree.refresh': 'Refresh',
  'tree.download': 'Download as .zip',
  'tree.folderEmpty': 'Empty folder',
  'tree.folderLoading': 'Reading…',
  'tree.truncated':
    '“{folder}” has more than {count} entries; {count} of them are shown. Ask the agent to find a file by name.',
  'zip.title': 'Download as .zip',
  'zip.what': 'What to download',
  'zip.whole': 'The whole workspace',
  'zip.folder': 'The folder {folder}',
  'zip.includeGit': 'Include .git folders (version history)',
  'zip.includeHint': 'Everything else is included, hidden files too.',
  'zip.start': 'Download',
  'zip.listing': 'Listing files…',
  'zip.progress': '{done} of {total} files · {bytesDone} of {bytesTotal}',
  'zip.progressLabel': 'Download progress',
  'zip.saved': 'Saved {name}: {files} files, {bytes}.',
  'zip.started': 'The browser is saving {name}: {files} files, {bytes}.',
  'zip.cancelled': 'Download cancelled. The partial file was discarded.',
  'zip.pickerCancelled': 'No file was chosen, so nothing was downloaded.',
  'import.kind': 'A .zip archive, unpacked privately in this browser',
  'import.file': '.zip file',
  'import.hint':
    'Unpacked into a new private workspace. Archives with unsafe paths, passwords, links or far too much data are refused, and then nothing is created.',
  'import.start': 'Import',
  'import.progress': 'Unpacking {done} of {total} files · {bytesDone}',
  'import.progressLabel': 'Import progress',
  'import.noFile': 'Choose a .zip file to import.',
  'import.nameHint': 'Leave empty to use the archive’s name.',
  'import.choose': 'Choose .zip file…',
  'import.noneChosen': 'No file chosen',
};

export type FilesKey = keyof typeof filesEn;

export const filesZh: Record<FilesKey, string> = {
  'tree.refresh': '刷新',
  'tree.download': '下载为 .zip',
  'tree.folderEmpty': '空文件夹',
  'tree.folderLoading': '正在读取…',
  'tree.truncated': '“{folder}”中的条目超过 {count} 个，只显示其中 {count} 个。可以让助手按名称查找文件。',
  'zip.title': '下载为 .zip',
  'zip.what': '下载内容',
  'zip.whole': '整个工作区',
  'zip.folder': '文件夹 {folder}',
  'zip.includeGit': '包含 .git 文件夹（版本历史）',
  'zip.includeHint': '其余内容全部包含，隐藏文件也包含在内。',
  'zip.start': '下载',
  'zip.listing': '正在列出文件…',
  'zip.progress': '{done} / {total} 个文件 · {bytesDone} / {bytesTotal}',
  'zip.progressLabel': '下载进度',
  'zip.saved': '已保存 {name}：{files} 个文件，{bytes}。',
  'zip.started': '浏览器正在保存 {name}：{files} 个文件，{bytes}。',
  'zip.cancelled': '下载已取消，未完成的文件已丢弃。',
  'zip.pickerCancelled': '没有选择保存位置，因此没有下载。',
  'import.kind': '.zip 压缩包，在此浏览器中私密解压',
  'import.file': '.zip 文件',
  'import.hint':
    '解压到一个新的私有工作区。路径不安全、带密码、含链接或数据量大得离谱的压缩包会被拒绝，且不会创建任何东西。',
  'import.start': '导入',
  'import.progress': '正在解压 {done} / {total} 个文件 · {bytesDone}',
  'import.progressLabel': '导入进度',
  'import.noFile': '请选择要导入的 .zip 文件。',
  'import.nameHint': '留空则使用压缩包的名称。',
  'import.choose': '选择 .zip 文件…',
  'import.noneChosen': '未选择文件',
};

const dictionaries: Record<Locale, Record<FilesKey, string>> = { en: filesEn, zh: filesZh };

export function filesText(locale: Locale, key: FilesKey, params?: Record<string, string | number>): string {
  const template = dictionaries[locale][key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
