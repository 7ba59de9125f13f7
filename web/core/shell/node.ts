// Node-only face of web/core/shell: the runner that spawns commands (child_process) in bubblewrap / sandbox-exec,
// for headless i. The browser bundle never imports it.
import { shellTools, type ShellTools, type ShellToolsOptions } from './shell-tools';
import { createNodeShellRunner, type NodeShellOptions } from './node-runner';
import type { ShellRunner } from './types';

export { createNodeShellRunner, shellEnv, SHELL_HIDDEN_ENV, type NodeShellOptions } from './node-runner';

/** The shell tools of one headless run over the Node runner; call `stopAll` when the run ends. */
export function createNodeShell(
  options: NodeShellOptions & Omit<ShellToolsOptions, 'runner'>,
): ShellTools & { runner: ShellRunner } {
  const runner = createNodeShellRunner(options);
  const { onOutput, limits } = options;
  return {
    runner,
    ...shellTools({ runner, ...(onOutput ? { onOutput } : {}), ...(limits ? { limits } : {}) }),
  };
}
