// The one-line summary an approval card shows comes from the tool's prepare() in English (the CLI and the model
// read it too). Said in the person's language here: each known shape (the built-in tools' and the app's own
// sources') is matched and said again through the chat strings; anything else is shown as the tool wrote it.
import type { ChatKey, ChatTranslate } from './chat-i18n';

const SHAPES: [RegExp, ChatKey, string[]][] = [
  [/^Edit (.+) \(1 replacement\)$/s, 'sum.edit1', ['path']],
  [/^Edit (.+) \((\d+) replacements\)$/s, 'sum.edit', ['path', 'n']],
  [/^Create (.+) \((\d+) lines?\)$/s, 'sum.create', ['path', 'n']],
  [/^Overwrite binary file (.+) with text \((\d+) lines?\)$/s, 'sum.overwriteBinary', ['path', 'n']],
  [/^Overwrite (.+) \((\d+) lines?\)$/s, 'sum.overwrite', ['path', 'n']],
  [/^Write (.+) \(unchanged\)$/s, 'sum.unchanged', ['path']],
  [/^Read (.+)$/s, 'sum.read', ['path']],
  [/^View image (.+)$/s, 'sum.viewImage', ['path']],
  [/^Fetch (.+) \(via (.+)\)$/s, 'sum.fetch', ['url', 'via']],
  [/^Search the web for (.+) \((.+)\)$/s, 'sum.search', ['query', 'host']],
  [/^Forget memory (".*")$/s, 'sum.forget', ['key']],
  [/^Remember (".*")$/s, 'sum.remember', ['key']],
  [/^Run (.+) on i-bridge \((.+)\)$/s, 'sum.bridge', ['tool', 'where']],
  [/^Run (.+) of plugin (\S+) (\S+)$/s, 'sum.plugin', ['tool', 'plugin', 'version']],
];

export function summaryText(summary: string, ct: ChatTranslate): string {
  for (const [shape, key, names] of SHAPES) {
    const m = shape.exec(summary);
    if (m) return ct(key, Object.fromEntries(names.map((name, i) => [name, m[i + 1]!])));
  }
  return summary;
}
