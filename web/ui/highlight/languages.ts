// The languages the highlighter knows, each loaded on first use as its own chunk (a static `import()` string per
// language, so Vite splits them; nothing here enters the first screen's JavaScript). Names are Shiki's; fence
// labels and file names map onto them through ALIASES / EXTENSIONS / FILE_NAMES.
import type { LanguageInput } from 'shiki/core';

type Loader = () => Promise<{ default: unknown }>;

export const LANGUAGES: Record<string, Loader> = {
  bat: () => import('shiki/langs/bat.mjs'),
  c: () => import('shiki/langs/c.mjs'),
  cmake: () => import('shiki/langs/cmake.mjs'),
  cpp: () => import('shiki/langs/cpp.mjs'),
  csharp: () => import('shiki/langs/csharp.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  dart: () => import('shiki/langs/dart.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  dockerfile: () => import('shiki/langs/dockerfile.mjs'),
  elixir: () => import('shiki/langs/elixir.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  graphql: () => import('shiki/langs/graphql.mjs'),
  haskell: () => import('shiki/langs/haskell.mjs'),
  hcl: () => import('shiki/langs/hcl.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  ini: () => import('shiki/langs/ini.mjs'),
  java: () => import('shiki/langs/java.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  jsonc: () => import('shiki/langs/jsonc.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  kotlin: () => import('shiki/langs/kotlin.mjs'),
  less: () => import('shiki/langs/less.mjs'),
  lua: () => import('shiki/langs/lua.mjs'),
  makefile: () => import('shiki/langs/makefile.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  nginx: () => import('shiki/langs/nginx.mjs'),
  nix: () => import('shiki/langs/nix.mjs'),
  'objective-c': () => import('shiki/langs/objective-c.mjs'),
  perl: () => import('shiki/langs/perl.mjs'),
  php: () => import('shiki/langs/php.mjs'),
  powershell: () => import('shiki/langs/powershell.mjs'),
  proto: () => import('shiki/langs/proto.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  r: () => import('shiki/langs/r.mjs'),
  ruby: () => import('shiki/langs/ruby.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  scala: () => import('shiki/langs/scala.mjs'),
  scss: () => import('shiki/langs/scss.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  svelte: () => import('shiki/langs/svelte.mjs'),
  swift: () => import('shiki/langs/swift.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  vue: () => import('shiki/langs/vue.mjs'),
  wasm: () => import('shiki/langs/wasm.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  zig: () => import('shiki/langs/zig.mjs'),
};

/** Fence labels and common names → a name of LANGUAGES. */
const ALIASES: Record<string, string> = {
  bash: 'shellscript',
  sh: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  console: 'shellscript',
  batch: 'bat',
  cmd: 'bat',
  'c++': 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  docker: 'dockerfile',
  ex: 'elixir',
  exs: 'elixir',
  golang: 'go',
  gql: 'graphql',
  hs: 'haskell',
  terraform: 'hcl',
  tf: 'hcl',
  htm: 'html',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  json5: 'jsonc',
  kt: 'kotlin',
  kts: 'kotlin',
  make: 'makefile',
  mk: 'makefile',
  md: 'markdown',
  objc: 'objective-c',
  pl: 'perl',
  ps1: 'powershell',
  pwsh: 'powershell',
  protobuf: 'proto',
  py: 'python',
  python3: 'python',
  rb: 'ruby',
  rs: 'rust',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  wat: 'wasm',
  svg: 'xml',
  yml: 'yaml',
  conf: 'ini',
  cfg: 'ini',
};

/** File extensions that differ from their alias (the rest go through ALIASES and LANGUAGES). */
const EXTENSIONS: Record<string, string> = {
  h: 'c',
  cxx: 'cpp',
  hh: 'cpp',
  m: 'objective-c',
  jsonl: 'json',
  lock: 'json',
  bashrc: 'shellscript',
  properties: 'ini',
};

const FILE_NAMES: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  'cmakelists.txt': 'cmake',
  '.bashrc': 'shellscript',
  '.zshrc': 'shellscript',
  '.profile': 'shellscript',
  '.gitignore': 'ini',
  '.editorconfig': 'ini',
  'tsconfig.json': 'jsonc',
  'jsconfig.json': 'jsonc',
};

/** A fence label (` ```ts title="x" ` → "ts") or language name as a name of LANGUAGES, else null. */
export function resolveLanguage(label: string | undefined | null): string | null {
  if (!label) return null;
  const name = label
    .trim()
    .split(/[\s{,]/, 1)[0]!
    .toLowerCase();
  if (Object.hasOwn(LANGUAGES, name)) return name;
  const alias = Object.hasOwn(ALIASES, name) ? ALIASES[name]! : undefined;
  return alias ?? null;
}

/** The language of a workspace path from its file name or extension, or null when none fits. */
export function languageOf(path: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (Object.hasOwn(FILE_NAMES, base)) return FILE_NAMES[base]!;
  if (base.startsWith('dockerfile.')) return 'dockerfile';
  const dot = base.lastIndexOf('.');
  if (dot < 0) return null;
  const ext = base.slice(dot + 1);
  if (Object.hasOwn(EXTENSIONS, ext)) return EXTENSIONS[ext]!;
  return resolveLanguage(ext);
}

/** The grammar module of a resolved language name. */
export async function loadGrammar(name: string): Promise<LanguageInput> {
  const loader = LANGUAGES[name];
  if (!loader) throw new Error(`unknown language ${name}`);
  return (await loader()).default as LanguageInput;
}
