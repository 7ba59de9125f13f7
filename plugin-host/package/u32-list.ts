// A growable list of unsigned 32-bit integers. The wasm walk keeps per-item facts (function type indices, type
// and export offsets) in these instead of arrays of objects: 4 bytes per number, grown by doubling as items are
// actually read, never preallocated from a count the module declares.
export class U32List {
  private data = new Uint32Array(16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number | undefined {
    return index >= 0 && index < this.length ? this.data[index] : undefined;
  }
}
