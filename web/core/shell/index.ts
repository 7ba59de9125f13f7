// Public face of web/core/shell (browser-safe): the shell tools over a ShellRunner port, their limits, and the
// bounded output helpers. What spawns processes is Node-only: `./node.ts`.
export {
  shellTools,
  SHELL_OUTPUT_TOOL,
  SHELL_STOP_TOOL,
  SHELL_TOOL_NAMES,
  type ShellTools,
  type ShellToolsOptions,
} from './shell-tools';
export type { SandboxInfo, ShellExit, ShellOutputEvent, ShellProcess, ShellRunner, ShellSpec } from './types';
export * from './limits';
