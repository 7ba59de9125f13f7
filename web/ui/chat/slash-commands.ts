// Slash commands of the composer: the built-in list plus the workspace's skills as `/skill-name`, what the menu shows
// for a typed prefix, and running a parsed command against the view's actions. Pure (no Solid, no DOM), so the
// parsing and dispatch are unit-tested in Node; the composer owns the menu and the actions.
import type { ComposerKey } from './composer-strings';
import type { MeterKey } from './meter-strings';

export type BuiltinCommand = 'new' | 'clear' | 'fork' | 'context' | 'compact' | 'model' | 'export' | 'help';

export interface SlashCommand {
  name: string;
  kind: 'builtin' | 'skill';
  /** The string key of its one-line description (skills carry their own description). */
  hint: ComposerKey | MeterKey;
  description?: string;
  /** Picking it from the menu completes `/name ` for an argument instead of running it. */
  takesArgs: boolean;
}

export const BUILTIN_COMMANDS: readonly SlashCommand[] = [
  { name: 'new', kind: 'builtin', hint: 'c.cmd.new', takesArgs: false },
  { name: 'clear', kind: 'builtin', hint: 'c.cmd.clear', takesArgs: false },
  { name: 'fork', kind: 'builtin', hint: 'c.cmd.fork', takesArgs: false },
  { name: 'context', kind: 'builtin', hint: 'meter.cmd.context', takesArgs: false },
  // Picked from the menu it completes `/compact ` so a focus can be typed; Enter on its own compacts without one.
  { name: 'compact', kind: 'builtin', hint: 'meter.cmd.compact', takesArgs: true },
  { name: 'model', kind: 'builtin', hint: 'c.cmd.model', takesArgs: true },
  { name: 'export', kind: 'builtin', hint: 'c.cmd.export', takesArgs: false },
  { name: 'help', kind: 'builtin', hint: 'c.cmd.help', takesArgs: false },
];

/** Built-ins first; a skill named like a built-in is left out (the built-in would shadow it anyway). */
export function commandList(skills: readonly { name: string; description: string }[]): SlashCommand[] {
  const taken = new Set(BUILTIN_COMMANDS.map((c) => c.name));
  const fromSkills = skills
    .filter((s) => !taken.has(s.name))
    .map((s): SlashCommand => ({
      name: s.name,
      kind: 'skill',
      hint: 'c.cmd.skill',
      description: s.description,
      takesArgs: true,
    }));
  return [...BUILTIN_COMMANDS, ...fromSkills];
}

/** The name being typed while the draft is `/name` with nothing after it yet (the menu is open); else null. */
export function slashQuery(draft: string): string | null {
  const m = /^\/([^\s/]*)$/.exec(draft);
  return m ? m[1]!.toLowerCase() : null;
}

/** Commands for a typed prefix: names starting with it, then names containing it, each in list order. */
export function matchCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** `/name rest…` → name and the trimmed rest; null when the draft is not a command. */
export function parseSlash(draft: string): { name: string; args: string } | null {
  const m = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(draft.trim());
  return m ? { name: m[1]!, args: (m[2] ?? '').trim() } : null;
}

/** What the view can do for a command; each may throw (the composer shows the error). */
export interface CommandActions {
  newSession(): void;
  fork(): Promise<void> | void;
  /** null = the configured model. */
  setModel(name: string | null): void;
  openModelMenu(): void;
  exportSession(kind: 'md' | 'json'): Promise<void> | void;
  openHelp(): void;
  /** Opens the breakdown of the next request (the /context view). */
  openContext(): void;
  /** Compacts the open session now; `focus` (may be empty) tells the summary what to keep. */
  compact(focus: string): Promise<void> | void;
  /** A skill: send a message asking the agent to use it, with the rest of the line. */
  useSkill(name: string, args: string): Promise<void> | void;
}

export type CommandOutcome = { ok: true } | { ok: false; error: ComposerKey; params: Record<string, string> };

export async function runCommand(
  commands: readonly SlashCommand[],
  parsed: { name: string; args: string },
  actions: CommandActions,
): Promise<CommandOutcome> {
  const command =
    commands.find((c) => c.name === parsed.name) ??
    commands.find((c) => c.name.toLowerCase() === parsed.name.toLowerCase());
  if (!command) return { ok: false, error: 'c.unknownCommand', params: { name: `/${parsed.name}` } };
  if (command.kind === 'skill') {
    await actions.useSkill(command.name, parsed.args);
    return { ok: true };
  }
  switch (command.name as BuiltinCommand) {
    case 'new':
    case 'clear':
      actions.newSession();
      break;
    case 'fork':
      await actions.fork();
      break;
    case 'context':
      actions.openContext();
      break;
    case 'compact':
      await actions.compact(parsed.args);
      break;
    case 'model':
      if (parsed.args) actions.setModel(parsed.args === 'default' ? null : parsed.args);
      else actions.openModelMenu();
      break;
    case 'export':
      await actions.exportSession(/^json$/i.test(parsed.args) ? 'json' : 'md');
      break;
    case 'help':
      actions.openHelp();
      break;
  }
  return { ok: true };
}
