// The import rules of the repository (issue 30), checked by `npm run lint` with dependency-cruiser 17.4.3 (the last
// line that runs on Node 20). Type-only imports count: they are dependencies for the person reading the code.
// web/core/CONTEXT.md explains the layers; change the tiers below only together with that file. The layer rules judge
// production code: a test may drive a feature together with the layers above it.

/** web/core's features, lowest first. A feature imports contracts and features of LOWER tiers only (never its own
 * tier), so the folders can never form a loop again. */
const FEATURE_TIERS = [
  ['storage', 'providers', 'hooks', 'usage', 'prompts', 'browser-model', 'brand'],
  ['context', 'approval', 'settings', 'workspaces'],
  ['tools'],
  ['tool-views', 'plugins', 'shell'],
  ['config'],
  ['transport', 'bridge-client', 'modules'],
  ['sessions', 'provider-files', 'smoke', 'archive'],
  ['checkpoints'],
];
const FEATURES = FEATURE_TIERS.flat();
/** Composition roots: they wire features and the agent together. Nothing below imports them. */
const ROOTS = ['app-agent', 'agent-worker', 'headless', 'page'];
const TEST =
  '(\\.test\\.tsx?|\\.spec\\.ts|\\.bench\\.ts|test-kit\\.ts|-suite\\.ts|/__fixtures__/|/fixtures/|/testing/)';
const any = (names) => `(${names.join('|')})`;

const tierRules = FEATURE_TIERS.map((tier, i) => ({
  name: `feature-tier-${i + 1}`,
  comment: `Features of tier ${i + 1} (${tier.join(', ')}) import only contracts and lower tiers.`,
  severity: 'error',
  from: { path: `^web/core/${any(tier)}/`, pathNot: TEST },
  to: { path: `^web/core/${any(FEATURE_TIERS.slice(i).flat())}/`, pathNot: '^web/core/$1/' },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included: move the shared piece down (usually into contracts).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contracts-at-the-bottom',
      comment: 'web/core/contracts imports nothing else from web/core.',
      severity: 'error',
      from: { path: '^web/core/contracts/', pathNot: TEST },
      to: { path: '^web/core/', pathNot: '^web/core/contracts/' },
    },
    ...tierRules,
    {
      name: 'features-below-the-agent',
      comment:
        'Features never import the agent loop or a composition root; the agent composes them through interfaces.',
      severity: 'error',
      from: { path: `^web/core/${any(FEATURES)}/`, pathNot: TEST },
      to: { path: `^web/core/${any(['agent', ...ROOTS])}/` },
    },
    {
      name: 'agent-below-the-roots',
      comment: 'The loop does not import the Worker entry, the headless runner, the app agent or the page module.',
      severity: 'error',
      from: { path: '^web/core/agent/', pathNot: TEST },
      to: { path: `^web/core/${any(ROOTS)}/` },
    },
    {
      name: 'reach-a-folder-through-its-face',
      comment:
        'Another web/core folder is reached through its index.ts (node.ts: its Node-only face; lazy.ts: what import() loads), never a file inside it.',
      severity: 'error',
      from: { path: '^web/core/([^/]+)/', pathNot: TEST },
      to: { path: '^web/core/', pathNot: ['^web/core/$1/', '^web/core/[^/]+/(index|node|lazy)\\.tsx?$'] },
    },
    {
      name: 'ui-through-three-doors',
      comment: 'The UI reaches web/core only through the agent Worker face, the page module and contracts.',
      severity: 'error',
      from: { path: '^web/(ui/|main\\.tsx)', pathNot: TEST },
      to: { path: '^web/core/', pathNot: '^web/core/(agent-worker|page|contracts)/index\\.ts$' },
    },
    {
      name: 'ui-not-below-core',
      comment: 'The UI talks to plugins through web/core (the page module), not to plugin-host directly.',
      severity: 'error',
      from: { path: '^web/(ui/|main\\.tsx)', pathNot: TEST },
      to: { path: '^(plugin-host|packager|bridge|net)/' },
    },
    {
      name: 'core-not-ui',
      comment: 'web/core never imports the UI.',
      severity: 'error',
      from: { path: '^web/core/' },
      to: { path: '^web/(ui/|main\\.tsx)' },
    },
    {
      name: 'core-not-bridge',
      comment: 'web/core never imports the bridge or the packager; what both need lives in net/.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(bridge|packager)/' },
    },
    {
      name: 'bridge-stands-alone',
      comment: 'i-bridge imports only net/ (what it shares with headless i).',
      severity: 'error',
      from: { path: '^bridge/' },
      to: { path: '^(web|plugin-host|packager)/' },
    },
    {
      name: 'net-below-everything',
      comment: 'net/ (web fetch, address checks, HTML to text) imports nothing of the repository.',
      severity: 'error',
      from: { path: '^net/' },
      to: { path: '^(web|plugin-host|packager|bridge)/' },
    },
    {
      name: 'plugin-host-at-the-bottom',
      comment: 'plugin-host is the bottom layer of the app: it imports nothing from web/, packager/, bridge/.',
      severity: 'error',
      from: { path: '^plugin-host/' },
      to: { path: '^(web|packager|bridge)/' },
    },
    {
      name: 'packager-on-plugin-host',
      comment: 'The packager (hplugin) imports only plugin-host.',
      severity: 'error',
      from: { path: '^packager/' },
      to: { path: '^(web|bridge)/' },
    },
    {
      name: 'no-production-import-of-tests',
      comment: 'Production code never imports tests, test kits, suites, fixtures or e2e/.',
      severity: 'error',
      from: { path: '^(web|plugin-host|packager|bridge|net)/', pathNot: TEST },
      to: { path: [TEST, '^e2e/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|target)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
