// Refusals of "Import .zip". Where a plugin package refuses the same thing, the code is the package's
// (plugin-host/package/codes.ts), so one code means one problem across the app; the sentence is this
// feature's own, since "repack with hplugin pack" means nothing to someone importing a project. Every refusal
// leaves nothing behind, and its sentence says so.
import { HarnessError } from '../contracts';

const NOTHING = 'Nothing was imported.';

export const ZIP_IMPORT_FIXES = {
  E_PACKAGE_NOT_ZIP:
    'The file is not a ZIP archive. Choose a .zip file, or create one with your system’s “Compress” command.',
  E_PACKAGE_MALFORMED: 'The ZIP archive is broken or truncated. Download or create it again.',
  E_PACKAGE_TOO_LARGE: 'Import a smaller archive, or grant the unpacked folder as a workspace instead.',
  E_PACKAGE_ENCRYPTED: 'Password-protected archives are not supported. Create the archive again without a password.',
  E_PACKAGE_METHOD:
    'Only stored and deflate entries can be unpacked here. Create the archive again with standard ZIP compression.',
  E_PACKAGE_ENTRY_NAME:
    'An archive entry must be a relative path inside the archive (no “..”, no leading “/”, “\\” or drive letter, no control characters). Create the archive again from the folder itself.',
  E_PACKAGE_DUPLICATE_ENTRY:
    'Each path may appear once (names are compared after Unicode normalisation), and a file cannot also be a folder. Create the archive again from the folder itself.',
  E_PACKAGE_SYMLINK:
    'Symbolic links are not imported. Create the archive again without them (zip follows links unless given -y).',
  E_PACKAGE_ENTRY_TOO_LARGE: 'Import the large file separately, or grant the unpacked folder as a workspace instead.',
  E_PACKAGE_CRC: 'An entry does not match its checksum, so the archive is corrupt. Download or create it again.',
  E_PACKAGE_HEADER_MISMATCH:
    'An entry’s local header disagrees with the archive’s directory, so tools would unpack different files from it. Create the archive again.',
  E_ARCHIVE_TOO_MANY_ENTRIES: 'Split the archive, or grant the unpacked folder as a workspace instead.',
  E_ARCHIVE_TOO_LARGE: 'Import a part of it, or grant the unpacked folder as a workspace instead.',
  E_ARCHIVE_BOMB:
    'Only crafted archives (“zip bombs”) compress this far. If the archive is genuine, unpack it with another program and grant the folder as a workspace.',
  E_ARCHIVE_CANCELLED: 'Import it again when you are ready.',
} as const;

export type ZipImportCode = keyof typeof ZIP_IMPORT_FIXES;

/** `detail` says what is wrong; "Nothing was imported." and the code's fix follow. */
export function refuseImport(code: ZipImportCode, detail: string, data?: Record<string, unknown>): HarnessError {
  return new HarnessError(code, `${detail} ${NOTHING} ${ZIP_IMPORT_FIXES[code]}`, data);
}
