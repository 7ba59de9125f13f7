import { describe, expect, it } from 'vitest';
import { chatTranslator } from './chat-i18n';
import { summaryText } from './tool-summary';

const en = chatTranslator(() => 'en');
const zh = chatTranslator(() => 'zh');

describe('approval summaries in the person’s language', () => {
  it('says the built-in tools’ summaries in Chinese, and each one the same as the tool in English', () => {
    const cases: [string, string][] = [
      ['Edit notes.txt (1 replacement)', '编辑 notes.txt（1 处替换）'],
      ['Edit src/a b.ts (3 replacements)', '编辑 src/a b.ts（3 处替换）'],
      ['Create docs/new.md (12 lines)', '创建 docs/new.md（12 行）'],
      ['Overwrite "x" → a.txt (2 lines)', '覆盖 "x" → a.txt（2 行）'],
      ['Overwrite binary file img.png with text (1 lines)', '用文本覆盖二进制文件 img.png（1 行）'],
      ['Write a.txt (unchanged)', '写入 a.txt（内容不变）'],
      ['Read "./src/a.ts" → src/a.ts', '读取 "./src/a.ts" → src/a.ts'],
      ['View image docs/logo.png', '查看图片 docs/logo.png'],
      ['Run replace of plugin example.replace-text 1.0.0', '运行插件 example.replace-text 1.0.0 的 replace'],
    ];
    for (const [summary, chinese] of cases) {
      expect(summaryText(summary, zh)).toBe(chinese);
      expect(summaryText(summary, en)).toBe(summary);
    }
  });

  it('shows a summary of an unknown shape as the tool wrote it', () => {
    expect(summaryText('Frobnicate the widget', zh)).toBe('Frobnicate the widget');
  });
});
