// Compiled WebAssembly.Module objects cached per sha256 on the page side, so a warm invocation skips compilation:
// the Module is posted to each new worker (structured clone shares the compiled code, it does not recompile).
// Keyed by the sha256 the registry verified at import; least recently used entries are dropped past `max`.

export class ModuleCache {
  private readonly entries = new Map<string, Promise<WebAssembly.Module>>();

  constructor(private readonly max = 16) {}

  get(sha256: string, bytes: Uint8Array): Promise<WebAssembly.Module> {
    let entry = this.entries.get(sha256);
    if (entry) {
      this.entries.delete(sha256);
      this.entries.set(sha256, entry);
      return entry;
    }
    entry = WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    entry.catch(() => this.entries.delete(sha256));
    this.entries.set(sha256, entry);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  delete(sha256: string): void {
    this.entries.delete(sha256);
  }

  get size(): number {
    return this.entries.size;
  }
}
