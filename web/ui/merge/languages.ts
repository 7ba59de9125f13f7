// Syntax highlighting by file extension: each language pack is its own chunk, loaded when a file needs it.
import type { Extension } from '@codemirror/state';

const loaders: Record<string, () => Promise<Extension>> = {
  js: async () => (await import('@codemirror/lang-javascript')).javascript({ jsx: true }),
  ts: async () => (await import('@codemirror/lang-javascript')).javascript({ typescript: true }),
  tsx: async () => (await import('@codemirror/lang-javascript')).javascript({ typescript: true, jsx: true }),
  json: async () => (await import('@codemirror/lang-json')).json(),
  md: async () => (await import('@codemirror/lang-markdown')).markdown(),
  css: async () => (await import('@codemirror/lang-css')).css(),
  html: async () => (await import('@codemirror/lang-html')).html(),
  py: async () => (await import('@codemirror/lang-python')).python(),
};

const aliases: Record<string, string> = {
  mjs: 'js',
  cjs: 'js',
  jsx: 'js',
  mts: 'ts',
  cts: 'ts',
  jsonc: 'json',
  markdown: 'md',
  htm: 'html',
  svg: 'html',
  pyi: 'py',
};

/** The language pack's extension for `path`, or null (plain text) for an unknown extension or a failed load. */
export async function languageFor(path: string): Promise<Extension | null> {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  const load = loaders[aliases[ext] ?? ext];
  // A chunk that fails to load (offline after an update) leaves the diff readable, just uncoloured.
  return load ? load().catch(() => null) : null;
}
