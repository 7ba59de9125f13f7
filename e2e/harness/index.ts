export { serveBuild, freePort, BUILT_APP, type ServedBuild } from './serve-build';
export { launchBrowser, waitForServiceWorkerControl, type AppBrowser, type LaunchOptions } from './launch-browser';
export { folderPickerSubstitute, PICKED_FOLDER } from './folder-picker-substitute';
export { openApp, createPrivateWorkspace, createFileThroughUi, readFileThroughUi, workspaceId } from './app-page';
export { useServedApp, type ServedApp } from './served-app';
