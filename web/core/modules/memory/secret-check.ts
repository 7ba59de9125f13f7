// Memory never stores secrets (seed 000 §9: "不存 secret"). A value that looks like a credential is refused before
// anything is written. Heuristic by nature: well-known key formats, private key blocks, JWTs, `password=…`
// assignments, and long random-looking tokens (mixed case and digits; plain hex digests are allowed).
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/, 'an API key (sk-…)'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, 'a GitHub token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bAIza[0-9A-Za-z_-]{35}/, 'a Google API key'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, 'a JSON web token'],
  [
    /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|bearer)\b["']?\s*[:=]\s*["']?[^\s"']{6,}/i,
    'a password or token assignment',
  ],
  [/\bBearer\s+[A-Za-z0-9._~+/-]{16,}/, 'a bearer token'],
];

function randomLooking(token: string): boolean {
  if (/^[0-9a-f]+$/i.test(token)) return false; // digests and ids
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(token)).length;
  return classes === 3;
}

/** What kind of secret the text seems to contain, or null. */
export function secretKind(text: string): string | null {
  for (const [re, kind] of PATTERNS) if (re.test(text)) return kind;
  for (const token of text.match(/[A-Za-z0-9+/_=-]{32,}/g) ?? [])
    if (randomLooking(token)) return 'a long random token';
  return null;
}
