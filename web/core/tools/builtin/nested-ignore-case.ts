// Test-only: one workspace with nested .gitignore files whose negations re-include what an outer file excluded
// (`!/node_modules/`, `!dir/`, `!name`), anchored and unanchored rules, directory-only rules meeting a file of that
// name, and a negation git cannot honour because a parent folder is excluded. `expected` is what git lists
// (`git ls-files --others --exclude-standard`, hidden names and build folders left out as the walk leaves them):
// nested-ignore-vs-git.test.ts checks these lists against git itself on a real repository, and
// builtin-tools-suite.ts checks glob and search against them on both WorkspaceFs backends.

export const NESTED_IGNORE_FILES: Record<string, string> = {
  '.gitignore': 'node_modules/\n*.gen.ts\n/root-only.txt\ncache/\nlogs/*\n!logs/keep/\nvendor\n',
  'pkg/.gitignore': '!/node_modules/\n!keep.gen.ts\n/local/\nsecret.txt\n',
  'pkg/sub/.gitignore': '!cache/\nroot-only.txt\n!secret.txt\n',
  'app/.gitignore':
    '!vendor/\n# cannot work: app/cache is excluded by the root file, so git never looks inside\n!/cache/lib/\n',
  'lib/.gitignore': '*.txt\n!important.txt\n',
  'lib/deep/.gitignore': '!*.txt\nimportant.txt\n',
};

/** Every file of the tree besides the ignore files; each holds the line `needle`. */
export const NESTED_IGNORE_PATHS = [
  'a.ts',
  'x.gen.ts',
  'root-only.txt',
  'node_modules/m.js',
  'pkg/node_modules/dep.js',
  'pkg/node_modules/inner/x.js',
  'pkg/sub/node_modules/y.js',
  'pkg/keep.gen.ts',
  'pkg/other.gen.ts',
  'pkg/local/a.txt',
  'pkg/sub/local/b.txt',
  'pkg/secret.txt',
  'pkg/sub/secret.txt',
  'pkg/root-only.txt',
  'pkg/sub/root-only.txt',
  'cache/c.txt',
  'pkg/cache/e.txt',
  'pkg/sub/cache/d.txt',
  'logs/a.log',
  'logs/keepfile',
  'logs/keep/k.log',
  'vendor/v.js',
  'app/vendor/w.js',
  'app/cache/lib/z.js',
  'lib/a.txt',
  'lib/important.txt',
  'lib/cache',
  'lib/deep/b.txt',
  'lib/deep/important.txt',
  'lib/deep/c.md',
];

/** In walk order (a folder's files by name, then its folders by name), as glob and search list them. */
export const NESTED_IGNORE_EXPECTED = {
  /** `glob **` and `search needle`: build folders such as node_modules are skipped unless named. */
  all: [
    'a.ts',
    'app/vendor/w.js',
    'lib/cache',
    'lib/important.txt',
    'lib/deep/b.txt',
    'lib/deep/c.md',
    'logs/keep/k.log',
    'pkg/keep.gen.ts',
    'pkg/root-only.txt',
    'pkg/sub/secret.txt',
    'pkg/sub/cache/d.txt',
    'pkg/sub/local/b.txt',
  ],
  /** `glob **\/node_modules/**`: the folders re-included where git re-includes them, and only there. */
  nodeModules: ['pkg/node_modules/dep.js', 'pkg/node_modules/inner/x.js'],
  /** `search needle` with `path: pkg/sub`: the rules of the folders above apply. */
  pkgSub: ['pkg/sub/secret.txt', 'pkg/sub/cache/d.txt', 'pkg/sub/local/b.txt'],
};
