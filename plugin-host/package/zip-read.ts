// Reads a .hplugin.zip by walking its structure ourselves (end of central directory, central directory, local
// headers), so that every rule of seed 004 "包格式" is enforced on the actual bytes: no ZIP64, no comments, no
// encryption, stored/deflate only, nothing before/between/after the entries, local headers that agree with the
// central directory, no directories or links, exactly the three root entries, sizes capped on inflated bytes.
import { QUOTE_MAX_CHARS, quoteUntrusted } from '../errors';
import { refuse } from './codes';
import { crc32 } from './crc32';
import { DeflateBlockBomb, walkDeflate, type DeflateWalk } from './deflate-end';
import { InflateCapExceeded, inflateRawCapped } from './inflate';
import { ENTRY_LIMITS, ENTRY_NAMES, PACKAGE_LIMITS, type EntryName } from './limits';

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_DESCRIPTOR = 0x08074b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_MASKED_HEADERS = 0x2000;
// Bits a package may set: 1-2 (deflate level hints, Info-ZIP sets them for -9/-1), 3 (data descriptor, streaming
// writers) and 11 (UTF-8 names, hplugin pack). Everything else names a feature no package needs: 4 enhanced
// deflating, 5 patched data, 12 enhanced compression, 7-10 and 14-15 unused (encryption bits have their own code).
const FLAGS_ALLOWED = 0x0002 | 0x0004 | FLAG_DESCRIPTOR | 0x0800;
// APPNOTE's highest "version needed to extract" is 6.3 (63, LZMA/PPMd/Blowfish); hplugin pack writes 20.
const MAX_VERSION_NEEDED = 63;
// Info-ZIP Unicode Path and Unicode Comment: another name (or comment) that other unzip tools show or extract
// under, so the entry we checked would not be the file a person or tool sees.
const EXTRA_UNICODE_PATH = 0x7075;
const EXTRA_UNICODE_COMMENT = 0x6375;

const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const METHOD_AES = 99;

const HOST_UNIX = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;

interface CentralEntry {
  name: string;
  nameBytes: Uint8Array;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export type PackageEntries = Record<EntryName, Uint8Array>;

/** Reads the three entries of a package, refusing anything seed 004 does not allow. */
export async function readPackageZip(bytes: Uint8Array): Promise<PackageEntries> {
  if (bytes.length > PACKAGE_LIMITS.packageBytes) {
    throw refuse('E_PACKAGE_TOO_LARGE', `The package is ${bytes.length} bytes.`, {
      size: bytes.length,
      limit: PACKAGE_LIMITS.packageBytes,
    });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(bytes, view);
  const entries = readCentralDirectory(bytes, view, eocd);
  const placed = checkLayout(bytes, view, entries, eocd.cdOffset);
  const out: Partial<PackageEntries> = {};
  for (const name of ENTRY_NAMES) {
    const entry = placed.find((e) => e.name === name);
    if (!entry) throw refuse('E_PACKAGE_MISSING_ENTRY', `The package has no ${name}.`, { entry });
    out[name] = await extract(bytes, entry);
  }
  return out as PackageEntries;
}

interface Eocd {
  at: number;
  count: number;
  cdSize: number;
  cdOffset: number;
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): Eocd {
  if (bytes.length < EOCD_SIZE) throw refuse('E_PACKAGE_NOT_ZIP', `The file is only ${bytes.length} bytes.`);
  // Comments are refused, so a valid package ends with the 22-byte record; search further back only to name the
  // actual problem (a comment, or bytes appended after the archive).
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - 0xffff - 4096);
  let at = -1;
  for (let i = bytes.length - EOCD_SIZE; i >= lowest; i--) {
    if (view.getUint32(i, true) === SIG_EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) {
    // A file that starts like a ZIP but has no end record was cut short (an interrupted download or copy).
    if (view.getUint32(0, true) === SIG_LOCAL) {
      throw refuse(
        'E_PACKAGE_MALFORMED',
        `The file starts as a ZIP archive but its end is missing (${bytes.length} bytes): it was probably cut short by an interrupted download or copy, so get the whole file again.`,
      );
    }
    throw refuse('E_PACKAGE_NOT_ZIP', 'No end-of-central-directory record was found.');
  }
  const disk = view.getUint16(at + 4, true);
  const cdDisk = view.getUint16(at + 6, true);
  const countOnDisk = view.getUint16(at + 8, true);
  const count = view.getUint16(at + 10, true);
  const cdSize = view.getUint32(at + 12, true);
  const cdOffset = view.getUint32(at + 16, true);
  const commentLength = view.getUint16(at + 20, true);
  if (at >= 20 && view.getUint32(at - 20, true) === SIG_ZIP64_LOCATOR) {
    throw refuse('E_PACKAGE_ZIP64', 'The archive has a ZIP64 end-of-central-directory locator.');
  }
  if (count === 0xffff || countOnDisk === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw refuse('E_PACKAGE_ZIP64', 'The end-of-central-directory record defers to ZIP64 fields.');
  }
  if (commentLength > 0) throw refuse('E_PACKAGE_COMMENT', `The archive has a ${commentLength}-byte comment.`);
  if (at + EOCD_SIZE !== bytes.length) {
    throw refuse('E_PACKAGE_EXTRA_DATA', `${bytes.length - at - EOCD_SIZE} bytes follow the end of the archive.`);
  }
  if (disk !== 0 || cdDisk !== 0 || countOnDisk !== count) {
    throw refuse('E_PACKAGE_MALFORMED', 'The archive claims to span several disks.');
  }
  if (cdOffset + cdSize > at) throw refuse('E_PACKAGE_MALFORMED', 'The central directory extends past its end record.');
  if (cdOffset + cdSize < at) {
    throw refuse(
      'E_PACKAGE_EXTRA_DATA',
      `${at - cdOffset - cdSize} bytes sit between the central directory and its end record.`,
    );
  }
  return { at, count, cdSize, cdOffset };
}

// ignoreBOM: a name starting with U+FEFF is another name ("\uFEFFmanifest.json" is not manifest.json).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** An entry name as error data: bounded like the message quotes it (a name can be 64 KiB). */
const clip = (name: string) => (name.length > QUOTE_MAX_CHARS ? name.slice(0, QUOTE_MAX_CHARS) : name);

function readCentralDirectory(bytes: Uint8Array, view: DataView, eocd: Eocd): CentralEntry[] {
  const entries: CentralEntry[] = [];
  const seen = new Map<string, string>();
  let p = eocd.cdOffset;
  const end = eocd.cdOffset + eocd.cdSize;
  for (let i = 0; i < eocd.count; i++) {
    if (p + CENTRAL_SIZE > end || view.getUint32(p, true) !== SIG_CENTRAL) {
      throw refuse('E_PACKAGE_MALFORMED', `Central directory entry ${i} is missing or truncated.`);
    }
    const madeBy = view.getUint16(p + 4, true);
    const versionNeeded = view.getUint16(p + 6, true);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const time = view.getUint16(p + 12, true);
    const date = view.getUint16(p + 14, true);
    const crc = view.getUint32(p + 16, true);
    const compressedSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const diskStart = view.getUint16(p + 34, true);
    const externalAttributes = view.getUint32(p + 38, true);
    const localOffset = view.getUint32(p + 42, true);
    const recordEnd = p + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (recordEnd > end) throw refuse('E_PACKAGE_MALFORMED', `Central directory entry ${i} overruns the directory.`);
    const nameBytes = bytes.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLength);
    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      throw refuse('E_PACKAGE_ENTRY_NAME', `Entry ${i} has a name that is not UTF-8.`, { index: i });
    }
    const shown = quoteUntrusted(name);
    const entry = clip(name);

    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS) || method === METHOD_AES) {
      throw refuse('E_PACKAGE_ENCRYPTED', `Entry ${shown} is encrypted.`, { entry });
    }
    checkExtraField(view, p + CENTRAL_SIZE + nameLength, extraLength, shown);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff || diskStart === 0xffff) {
      throw refuse('E_PACKAGE_ZIP64', `Entry ${shown} defers to ZIP64 fields.`, { entry });
    }
    if (diskStart !== 0)
      throw refuse('E_PACKAGE_MALFORMED', `Entry ${shown} claims to start on disk ${diskStart}.`, { entry });
    if (flags & ~FLAGS_ALLOWED) {
      const bits = [...Array(16).keys()].filter((b) => flags & ~FLAGS_ALLOWED & (1 << b));
      throw refuse(
        'E_PACKAGE_ZIP_FEATURE',
        `Entry ${shown} sets general-purpose flag bit${bits.length > 1 ? 's' : ''} ${bits.join(', ')}.`,
        { entry, flags },
      );
    }
    if (versionNeeded > MAX_VERSION_NEEDED) {
      throw refuse('E_PACKAGE_ZIP_FEATURE', `Entry ${shown} needs ZIP version ${versionNeeded}.`, {
        entry,
        versionNeeded,
      });
    }
    const unixMode = madeBy >> 8 === HOST_UNIX ? externalAttributes >>> 16 : 0;
    const type = unixMode & S_IFMT;
    if (type === S_IFLNK) throw refuse('E_PACKAGE_SYMLINK', `Entry ${shown} is a symbolic link.`, { entry });
    if (name.endsWith('/') || name.endsWith('\\') || type === S_IFDIR || externalAttributes & DOS_DIRECTORY) {
      throw refuse('E_PACKAGE_DIRECTORY', `Entry ${shown} is a directory.`, { entry });
    }
    if (type !== 0 && type !== S_IFREG) {
      throw refuse(
        'E_PACKAGE_SYMLINK',
        `Entry ${shown} is a special file (mode ${type.toString(8)}), not a regular file.`,
        { entry },
      );
    }
    if (name === '' || /[/\\\0]/.test(name) || name === '.' || name === '..' || /^[a-zA-Z]:/.test(name)) {
      throw refuse('E_PACKAGE_ENTRY_NAME', `Entry ${shown} is not a plain root file name.`, { entry });
    }
    const folded = name.toLowerCase();
    const earlier = seen.get(folded);
    if (earlier !== undefined) {
      throw refuse('E_PACKAGE_DUPLICATE_ENTRY', `Entry ${shown} duplicates ${quoteUntrusted(earlier)}.`, { entry });
    }
    seen.set(folded, name);
    if (!(ENTRY_NAMES as readonly string[]).includes(name)) {
      throw refuse('E_PACKAGE_UNEXPECTED_ENTRY', `The package holds ${shown}.`, { entry });
    }
    if (commentLength > 0) throw refuse('E_PACKAGE_COMMENT', `Entry ${shown} has a comment.`, { entry });
    if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
      throw refuse('E_PACKAGE_METHOD', `Entry ${shown} uses compression method ${method}.`, { entry, method });
    }
    if (method === METHOD_STORED && compressedSize !== size) {
      throw refuse('E_PACKAGE_MALFORMED', `Stored entry ${shown} declares different stored and original sizes.`, {
        entry,
      });
    }
    entries.push({ name, nameBytes, versionNeeded, flags, method, time, date, crc, compressedSize, size, localOffset });
    p = recordEnd;
  }
  if (p !== end) throw refuse('E_PACKAGE_EXTRA_DATA', 'The central directory holds bytes beyond its declared entries.');
  return entries;
}

/**
 * Extra fields are tolerated (other tools add timestamps) but must be well-formed; ZIP64 (0x0001) and the fields
 * that rename an entry for other tools (0x7075, 0x6375) are refused.
 */
function checkExtraField(view: DataView, start: number, length: number, shown: string): void {
  let p = start;
  const end = start + length;
  while (p < end) {
    if (p + 4 > end) throw refuse('E_PACKAGE_MALFORMED', `Entry ${shown} has a truncated extra field.`);
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001) throw refuse('E_PACKAGE_ZIP64', `Entry ${shown} has a ZIP64 extra field.`);
    if (id === EXTRA_UNICODE_PATH || id === EXTRA_UNICODE_COMMENT) {
      const what = id === EXTRA_UNICODE_PATH ? 'Unicode Path (0x7075)' : 'Unicode Comment (0x6375)';
      throw refuse('E_PACKAGE_EXTRA_FIELD', `Entry ${shown} has an Info-ZIP ${what} extra field.`, { field: id });
    }
    p += 4 + size;
  }
  if (p !== end) throw refuse('E_PACKAGE_MALFORMED', `Entry ${shown} has a truncated extra field.`);
}

interface Located extends CentralEntry {
  dataStart: number;
  dataEnd: number;
}

/** Local headers must agree with the central directory and tile the bytes from 0 to the central directory. */
function checkLayout(bytes: Uint8Array, view: DataView, entries: CentralEntry[], cdOffset: number): Located[] {
  const placed: Located[] = [];
  let expected = 0;
  for (const entry of [...entries].sort((a, b) => a.localOffset - b.localOffset)) {
    const shown = quoteUntrusted(entry.name);
    const p = entry.localOffset;
    if (p > expected) {
      throw refuse('E_PACKAGE_EXTRA_DATA', `${p - expected} unexpected bytes precede the header of ${shown}.`, {
        entry: entry.name,
      });
    }
    if (p < expected)
      throw refuse('E_PACKAGE_MALFORMED', `Entry ${shown} overlaps the entry before it.`, { entry: entry.name });
    if (p + LOCAL_SIZE > cdOffset || view.getUint32(p, true) !== SIG_LOCAL) {
      throw refuse('E_PACKAGE_MALFORMED', `The local header of ${shown} is missing.`, { entry: entry.name });
    }
    const nameLength = view.getUint16(p + 26, true);
    const extraLength = view.getUint16(p + 28, true);
    const dataStart = p + LOCAL_SIZE + nameLength + extraLength;
    const dataEnd = dataStart + entry.compressedSize;
    if (dataEnd > cdOffset)
      throw refuse('E_PACKAGE_MALFORMED', `The data of ${shown} runs into the central directory.`);
    const localName = bytes.subarray(p + LOCAL_SIZE, p + LOCAL_SIZE + nameLength);
    const disagree = (field: string) =>
      refuse(
        'E_PACKAGE_HEADER_MISMATCH',
        `The local header of ${shown} has a different ${field} than the central directory.`,
        {
          entry: entry.name,
          field,
        },
      );
    if (!sameBytes(localName, entry.nameBytes)) throw disagree('name');
    if (view.getUint16(p + 4, true) !== entry.versionNeeded) throw disagree('version needed');
    if (view.getUint16(p + 6, true) !== entry.flags) throw disagree('flags');
    if (view.getUint16(p + 8, true) !== entry.method) throw disagree('method');
    if (view.getUint16(p + 10, true) !== entry.time || view.getUint16(p + 12, true) !== entry.date)
      throw disagree('date');
    checkExtraField(view, p + LOCAL_SIZE + nameLength, extraLength, shown);
    const crc = view.getUint32(p + 14, true);
    const csize = view.getUint32(p + 18, true);
    const usize = view.getUint32(p + 22, true);
    let end = dataEnd;
    if (entry.flags & FLAG_DESCRIPTOR) {
      // Streaming writers leave the local fields zero and append a data descriptor, which must then agree.
      if (
        (crc !== 0 && crc !== entry.crc) ||
        (csize !== 0 && csize !== entry.compressedSize) ||
        (usize !== 0 && usize !== entry.size)
      ) {
        throw disagree('size or CRC');
      }
      let q = dataEnd;
      if (q + 4 <= cdOffset && view.getUint32(q, true) === SIG_DESCRIPTOR) q += 4;
      if (q + 12 > cdOffset) throw refuse('E_PACKAGE_MALFORMED', `The data descriptor of ${shown} is missing.`);
      if (
        view.getUint32(q, true) !== entry.crc ||
        view.getUint32(q + 4, true) !== entry.compressedSize ||
        view.getUint32(q + 8, true) !== entry.size
      ) {
        throw disagree('data descriptor');
      }
      end = q + 12;
    } else {
      if (crc !== entry.crc) throw disagree('CRC-32');
      if (csize !== entry.compressedSize || usize !== entry.size) throw disagree('size');
    }
    placed.push({ ...entry, dataStart, dataEnd });
    expected = end;
  }
  if (expected < cdOffset)
    throw refuse('E_PACKAGE_EXTRA_DATA', `${cdOffset - expected} unexpected bytes precede the central directory.`);
  if (expected > cdOffset) throw refuse('E_PACKAGE_MALFORMED', 'The last entry overlaps the central directory.');
  return placed;
}

/** The entry's bytes, as a copy that owns its buffer (it may be transferred to a Worker). */
async function extract(bytes: Uint8Array, entry: Located): Promise<Uint8Array> {
  const name = entry.name as EntryName;
  const cap = ENTRY_LIMITS[name];
  const raw = bytes.subarray(entry.dataStart, entry.dataEnd);
  const tooLarge = (actual: string) =>
    refuse('E_PACKAGE_ENTRY_TOO_LARGE', `${name} is ${actual} bytes, over its ${cap}-byte limit.`, {
      entry: name,
      limit: cap,
    });
  let data: Uint8Array;
  if (entry.method === METHOD_STORED) {
    if (raw.length > cap) throw tooLarge(String(raw.length));
    data = raw.slice();
  } else {
    // Our walk first: it refuses a block bomb after reading a few hundred bytes, before the native inflater
    // spends seconds on it. Its other findings wait, so the verdicts keep their order: over the cap first, then
    // corrupt data or hidden bytes.
    let walk: DeflateWalk | undefined;
    let walkFailed = false;
    try {
      walk = walkDeflate(raw, cap);
    } catch (error) {
      if (error instanceof DeflateBlockBomb) {
        throw refuse(
          'E_PACKAGE_DEFLATE_BOMB',
          `${name} has ${error.blocks} deflate blocks for its first ${error.produced} inflated bytes.`,
          {
            entry: name,
            blocks: error.blocks,
            produced: error.produced,
          },
        );
      }
      walkFailed = true;
    }
    try {
      data = await inflateRawCapped(raw, cap);
    } catch (error) {
      if (error instanceof InflateCapExceeded) throw tooLarge(`more than ${cap} inflated`);
      // Chromium's inflater fails on bytes after the final block; name that case the way Node's path does.
      checkDeflateEnd(raw, name, walk, walkFailed);
      throw refuse('E_PACKAGE_MALFORMED', `${name} does not inflate: its deflate data is corrupt.`, { entry: name });
    }
    // Node 20's inflater ignores bytes after the final block and Chromium's refuses them: decide it ourselves.
    checkDeflateEnd(raw, name, walk, walkFailed);
  }
  if (data.length !== entry.size) {
    throw refuse('E_PACKAGE_MALFORMED', `${name} inflates to ${data.length} bytes but declares ${entry.size}.`, {
      entry,
    });
  }
  if (crc32(data) !== entry.crc) throw refuse('E_PACKAGE_CRC', `${name} fails its CRC-32 check.`, { entry });
  return data;
}

function checkDeflateEnd(raw: Uint8Array, name: EntryName, walk: DeflateWalk | undefined, walkFailed: boolean): void {
  if (walkFailed) throw refuse('E_PACKAGE_MALFORMED', `${name} has corrupt deflate data.`, { entry: name });
  // No end: the walk stopped at the cap, and the native inflater (which stops there too) has given the verdict.
  const end = walk?.end;
  if (end !== undefined && end !== raw.length) {
    throw refuse('E_PACKAGE_EXTRA_DATA', `${raw.length - end} bytes are hidden after the deflate stream of ${name}.`, {
      entry: name,
    });
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
