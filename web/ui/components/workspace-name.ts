// The name the New workspace dialog suggests for a private workspace, which has no folder name to take.
/** A free name for a new private workspace: "Workspace 3" after two, never one already in the list. */
export function suggestWorkspaceName(existing: readonly string[], pattern: (n: number) => string): string {
  const taken = new Set(existing.map((name) => name.trim().toLowerCase()));
  let n = existing.length + 1;
  while (taken.has(pattern(n).toLowerCase())) n++;
  return pattern(n);
}
