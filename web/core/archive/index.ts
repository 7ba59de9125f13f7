// Public face of web/core/archive: "Download as .zip" of a workspace folder and "Import .zip" into a new private
// workspace, on @zip.js/zip.js. The plugin package validator does not use this: it keeps its own strict reader.
export { ZIP_IMPORT_LIMITS, type ZipImportLimits } from './limits';
export { ZIP_IMPORT_FIXES, type ZipImportCode } from './refusals';
export { planZipImport, type ZipImportPlan, type PlannedEntry } from './zip-entries';
export {
  importZip,
  importZipAsWorkspace,
  extractZipPlan,
  type ZipProgress,
  type ZipImportOptions,
  type ZipWorkspaceImport,
} from './import-zip';
export {
  listZipContents,
  prepareZipDownload,
  writeWorkspaceZip,
  type ZipDownloadOptions,
  type ZipContents,
} from './download-zip';
