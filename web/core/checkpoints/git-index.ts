// Reads a git index file (the `DIRC` format, versions 2–4, SHA-1) into its entries: path, mode, size and object id.
// The command recorder (command-changes.ts) takes a snapshot of the workspace with `git add -A` into the index of a
// shadow repository and reads that index itself: one file read and a loop, where asking git (`ls-files -s`) would
// cost a process and lose the sizes. Format: git's Documentation/gitformat-index.txt.

export interface IndexEntry {
  /** As stored: bytes decoded as UTF-8 ('/'-separated, relative to the work tree). */
  path: string;
  /** False when the stored bytes are not valid UTF-8: such a name cannot be written back through the workspace fs. */
  utf8: boolean;
  /** Unix mode: 0o100644 / 0o100755 a file, 0o120000 a symbolic link, 0o160000 a nested repository (gitlink). */
  mode: number;
  /**
   * Size in bytes as git last saw it (the low 32 bits). 0 for a "racily clean" entry git smudged on purpose (written
   * within the index's own timestamp granule): `smudged` then says to ask the file system or the object.
   */
  size: number;
  /** Lower-case hex object id (SHA-1). */
  oid: string;
}

export const MODE_SYMLINK = 0o120000;
export const MODE_GITLINK = 0o160000;
/** The object id of empty contents (`git hash-object /dev/null`). */
export const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

/** The entry count in an index header, without reading the rest; null when `head` is not an index header. */
export function indexEntryCount(head: Uint8Array): number | null {
  if (head.byteLength < 12 || head[0] !== 0x44 || head[1] !== 0x49 || head[2] !== 0x52 || head[3] !== 0x43) return null;
  return new DataView(head.buffer, head.byteOffset, 12).getUint32(8);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const decoder = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');

/** A path's bytes as text: ASCII at once (nearly every path; a TextDecoder call per entry cost 10 µs), else UTF-8. */
function decodePath(bytes: Uint8Array, start: number, end: number): { path: string; utf8: boolean } {
  let ascii = true;
  for (let i = start; i < end; i++)
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  const name = bytes.subarray(start, end);
  if (ascii) return { path: String.fromCharCode.apply(null, name as unknown as number[]), utf8: true };
  try {
    return { path: decoder.decode(name), utf8: true };
  } catch {
    return { path: lossy.decode(name), utf8: false };
  }
}

/** Entries of stage 0 in index order. Throws on anything that is not a version 2, 3 or 4 SHA-1 index. */
export function parseGitIndex(bytes: Uint8Array): IndexEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = indexEntryCount(bytes);
  if (count === null) throw new Error('not a git index (no DIRC header)');
  const version = view.getUint32(4);
  if (version < 2 || version > 4) throw new Error(`git index version ${version} is not supported`);
  const out: IndexEntry[] = [];
  let at = 12;
  // Version 4: the previous entry's path, rebuilt in place (each path is a prefix of the last one plus a suffix).
  let previous = new Uint8Array(4096);
  let previousLength = 0;
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + 62 > bytes.byteLength) throw new Error('git index cut short');
    const mode = view.getUint32(at + 24);
    const size = view.getUint32(at + 36);
    let oid = '';
    for (let k = 0; k < 20; k++) oid += HEX[bytes[at + 40 + k]!];
    const flags = view.getUint16(at + 60);
    at += 62;
    if (flags & 0x4000) {
      if (version < 3) throw new Error('extended flags in a version 2 git index');
      at += 2;
    }
    let name: { path: string; utf8: boolean };
    if (version === 4) {
      // Prefix compression: how many bytes of the previous path to drop (git's offset varint), then the rest.
      let c = bytes[at++]!;
      let drop = c & 127;
      while (c & 128) {
        c = bytes[at++]!;
        drop = ((drop + 1) << 7) | (c & 127);
      }
      const end = bytes.indexOf(0, at);
      if (end < 0 || drop > previousLength) throw new Error('git index path cut short');
      const length = previousLength - drop + (end - at);
      if (length > previous.byteLength) {
        const grown = new Uint8Array(length * 2);
        grown.set(previous.subarray(0, previousLength));
        previous = grown;
      }
      previous.set(bytes.subarray(at, end), previousLength - drop);
      previousLength = length;
      name = decodePath(previous, 0, length);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, at);
      if (end < 0) throw new Error('git index path cut short');
      name = decodePath(bytes, at, end);
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
    }
    if ((flags >> 12) & 3) continue; // a merge stage: never in the shadow index
    out.push({ path: name.path, utf8: name.utf8, mode, size, oid });
  }
  return out;
}
