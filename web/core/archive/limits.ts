// Bounds of "Import .zip". Sizes are counted on the bytes actually inflated, never on what the archive declares;
// declared sizes only let a plainly oversized archive be refused before anything is created.

const MiB = 1024 * 1024;

export interface ZipImportLimits {
  /** The .zip file itself. */
  archiveBytes: number;
  /** Files and folders in the archive (a central directory of millions of tiny entries is a bomb of its own). */
  entries: number;
  /** One inflated file. */
  entryBytes: number;
  /** All inflated files together: what the private workspace will hold. */
  totalBytes: number;
  /** Inflated / compressed bytes of one entry, checked once the entry passes `ratioFloorBytes`. */
  ratio: number;
  /** Below this many inflated bytes an entry's ratio is not judged (a 1 KiB run of spaces compresses 100:1). */
  ratioFloorBytes: number;
}

export const ZIP_IMPORT_LIMITS: ZipImportLimits = {
  archiveBytes: 1024 * MiB,
  entries: 50_000,
  entryBytes: 256 * MiB,
  totalBytes: 1024 * MiB,
  // Source trees deflate 3–10:1; log files and JSON up to ~30:1. 200:1 is past anything but crafted or
  // degenerate data (42.zip's layers are ~1000:1).
  ratio: 200,
  ratioFloorBytes: MiB,
};

/** Names whose content is already compressed: deflating them again costs time and saves nothing. */
export const STORED_EXTENSIONS =
  /\.(zip|gz|tgz|bz2|xz|zst|7z|rar|jar|apk|png|jpe?g|gif|webp|avif|heic|mp[34]|m4a|mov|webm|mkv|ogg|opus|woff2?|pdf|docx|xlsx|pptx|wasm)$/i;
