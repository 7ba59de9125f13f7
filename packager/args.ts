// A tiny, strict argument parser: known flags only, each at most once, `--flag value` or `--flag=value`.
export class UsageError extends Error {}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  positionals: string[];
}

/** `spec` maps each accepted flag (and its aliases) to its canonical name and whether it takes a value. */
export function parseArgs(argv: string[], spec: Record<string, { name: string; value: boolean }>): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const key = eq > 0 ? arg.slice(0, eq) : arg;
    const def = spec[key];
    if (!def) throw new UsageError(`unknown option ${key}`);
    if (flags.has(def.name)) throw new UsageError(`${key} given twice`);
    if (!def.value) {
      if (eq > 0) throw new UsageError(`${key} takes no value`);
      flags.set(def.name, true);
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${key} needs a value`);
    flags.set(def.name, value);
  }
  return { flags, positionals };
}
