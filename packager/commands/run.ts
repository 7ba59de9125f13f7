// `hplugin run`: one plugin invocation in Node. Filled in by the plugin-runtime work.
export async function runCommand(_args: string[]): Promise<number> {
  console.error('error E_NOT_IMPLEMENTED: hplugin run is not implemented yet.');
  return 2;
}
