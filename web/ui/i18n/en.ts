// English strings. Keys are grouped by screen; `{name}` placeholders are filled by t().
import { pluginsEn } from '../settings/plugins/strings';
import { agentEn } from '../settings/agent/strings';
import { rulesSettingsEn } from '../settings/agent/rules-strings';
import { toolViewSettingsEn } from '../settings/agent/tool-view-strings';
import { usageEn } from '../settings/usage/strings';
import { askReasonEn } from '../chat/ask-reason-strings';
import { layoutEn } from '../components/layout-strings';
import { changesEn } from '../changes/strings';
import { importReviewEn } from '../components/import-review-strings';

export const en = {
  'app.tagline': 'An AI coding agent that works in the folder you grant.',
  'app.loading': 'Opening your workspaces…',
  'app.storageError': 'Your data could not be opened',
  'app.retry': 'Try again',

  'unsupported.title': 'This browser cannot run i',
  'unsupported.body':
    'i runs plugins as WebAssembly and needs features this browser lacks: {features}. Open i in a current version of Chrome, Edge or another Chromium browser.',

  'sidebar.workspaces': 'Workspaces',
  'sidebar.newWorkspace': 'New workspace',
  'sidebar.noWorkspaces': 'No workspaces yet. Create one to let the agent work in a folder.',
  'sidebar.sessions': 'Sessions',
  'sidebar.newSession': 'New session',
  'sidebar.noSessions': 'No sessions in this workspace yet.',
  'sidebar.selectWorkspaceForSessions': 'Select a workspace to see its sessions.',
  'sidebar.settings': 'Settings',
  'sidebar.navigation': 'Workspaces and sessions',
  'sidebar.private': 'Private',
  'sidebar.folder': 'Folder',

  'welcome.title': 'Welcome to i',
  'welcome.body':
    'A workspace is a folder the agent may read and, if you allow it, change. Nothing leaves your computer except the requests you send to the model you choose.',
  'welcome.openFolder': 'Open a folder',
  'welcome.openFolderHint': 'Grant access to a project folder on this computer.',
  'welcome.private': 'Create a private workspace',
  'welcome.privateHint': 'A folder kept inside this browser, just for i.',
  'welcome.noPicker': 'This browser cannot grant folders to web apps; private workspaces still work.',

  'newWorkspace.title': 'New workspace',
  'newWorkspace.name': 'Name',
  'newWorkspace.namePlaceholder': 'My project',
  'newWorkspace.kind': 'Where the files live',
  'newWorkspace.kindFolder': 'A folder on this computer',
  'newWorkspace.kindPrivate': 'Private, inside this browser',
  'newWorkspace.access': 'Access',
  'newWorkspace.accessRead': 'Read only',
  'newWorkspace.accessReadWrite': 'Read and write',
  'newWorkspace.chooseFolder': 'Choose folder and create',
  'newWorkspace.create': 'Create',
  'newWorkspace.nameFromFolder': 'Leave empty to use the folder’s name.',
  'newWorkspace.suggestedName': 'Workspace {n}',
  'newWorkspace.nameSuggested': 'A suggested name: keep it, type another, or rename the workspace later.',
  'newWorkspace.kindChosen': 'Where the files live: {kind}.',
  'newWorkspace.changeKind': 'Change',

  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.chooseFile': 'Choose file…',
  'common.noFileChosen': 'No file chosen',
  'common.save': 'Save',
  'common.delete': 'Delete',
  'common.rename': 'Rename',
  'common.copy': 'Copy',
  'common.copied': 'Copied',

  'workspace.id': 'Workspace ID',
  'workspace.kindFolder': 'Folder',
  'workspace.kindPrivate': 'Private',
  'workspace.accessRead': 'Read only',
  'workspace.accessReadWrite': 'Read and write',
  'workspace.created': 'Created {date}',
  'workspace.deleteConfirm': 'Delete the workspace “{name}”? Its sessions and settings in i are removed. {extra}',
  'workspace.deleteFolderNote': 'Your folder and its files stay untouched.',
  'workspace.deletePrivateNote':
    'Its private files are deleted too and cannot be recovered: they live only in this browser. Copy out what you need first.',
  'workspace.renameTitle': 'Rename workspace',
  'workspace.restoreTitle': 'Access to “{folder}” needs your permission again',
  'workspace.restoreBody':
    'Browsers forget folder permissions after a restart. Your workspace and its history are still here.',
  'workspace.restore': 'Restore access',
  'workspace.deniedTitle': 'Access to “{folder}” was blocked',
  'workspace.deniedBody': 'Allow it again, or choose the folder again.',
  'workspace.missingTitle': 'The folder of this workspace cannot be found',
  'workspace.missingBody': 'It may have been moved, renamed or deleted. Choose it again to reconnect this workspace.',
  'workspace.chooseAgain': 'Choose folder again',

  'files.title': 'Files',
  'files.empty': 'This folder is empty.',
  'files.emptyWritable': 'This folder is empty. Create a file to get started.',
  'files.newFile': 'New file',
  'files.up': 'Up one folder',
  'files.root': 'Root',
  'files.loading': 'Reading folder…',
  'files.folder': 'Folder',
  'files.size': '{size}',
  'files.truncated':
    'This folder has more than {count} entries; {count} of them are shown. Open a subfolder, or ask the agent to find a file by name.',
  'files.tooLargeSized':
    '“{path}” is {size}, larger than the {max} this preview shows. The file itself is fine: open it with another program, or ask the agent to read the part you need.',
  'files.tooLarge':
    '“{path}” is larger than the {max} this preview shows. The file itself is fine: open it with another program, or ask the agent to read the part you need.',
  'files.path': 'Path',
  'files.pathHint': 'Relative to the workspace, e.g. notes/todo.md',
  'files.content': 'Content',
  'files.create': 'Create file',
  'files.readOnly': 'Read only',
  'files.imageAlt': 'The picture {path}',
  'files.preview': 'File preview',
  'files.exists': 'Something named “{path}” already exists. Choose another path.',
  'files.locked': 'The files of this workspace appear here once access is restored.',
  'files.binary': 'This file is not text, so it is not shown here ({size}).',

  'chat.title': 'Sessions',
  'chat.empty': 'Conversations with the agent in this workspace will appear here.',

  'settings.title': 'Settings',
  'settings.general': 'General',
  'settings.model': 'Model',
  'settings.workspaces': 'Workspaces',
  'settings.transfer': 'Import / Export',
  'settings.language': 'Language',
  'settings.languageSystem': 'Same as the browser',
  'settings.theme': 'Appearance',
  'settings.themeSystem': 'Same as the system',
  'settings.themeLight': 'Light',
  'settings.themeDark': 'Dark',
  'settings.showHidden': 'Show hidden files (names starting with a dot)',
  'settings.storage': 'Storage on this device',
  'settings.storageUsage': '{used} used of {quota} available',
  'settings.storageUnknown': 'This browser does not report storage usage.',
  'settings.persisted': 'Protected: the browser will not clear this data when space runs low.',
  'settings.notPersisted': 'Not protected: the browser may clear this data when space runs low.',
  'settings.persist': 'Keep data on this device',
  'settings.persistRefused': 'The browser declined. Installing i as an app usually allows it.',
  'settings.workspaceCount': '{count} of {max} workspaces',
  'settings.workspaceOverride': 'Show hidden files in this workspace',
  'settings.followGlobal': 'Same as global',
  'settings.allowGitWrites': 'Allow the agent to write inside .git',
  'settings.allowGitWritesHint':
    'Off by default. Git runs commands named in .git/config and .git/hooks, so a write there can run code on your next git command. Applies to write, edit and plugins from the next turn.',
  'settings.on': 'On',
  'settings.off': 'Off',
  'settings.secrets': 'Keys',
  'settings.secretsHint':
    'API keys and other secrets, kept only in this browser. Model settings refer to a key by its name; keys are never exported or shown again.',
  'settings.secretName': 'Name',
  'settings.secretValue': 'Value',
  'settings.secretSave': 'Save key',
  'settings.secretsEmpty': 'No keys stored yet.',
  'settings.secretDelete': 'Delete key {name}',
  'settings.export': 'Export settings',
  'settings.exportHint': 'Saves your settings as a JSON file. Keys and other secrets are never included.',
  'settings.import': 'Import settings',
  'settings.importHint': 'Choose a file exported from i. The file is checked first; a bad file changes nothing.',
  'settings.imported': 'Settings imported. Applied to: {applied}.',
  'settings.importedSkipped': 'No workspace here matches: {skipped}.',
  'settings.globalOnly': 'global settings only',

  'update.available': 'A new version of i is ready.',
  'update.reload': 'Reload to update',
  'update.later': 'Later',
  'update.offlineReady': 'i is ready to work offline.',

  'error.generic': 'Something went wrong: {message}',
  ...pluginsEn,
  ...agentEn,
  ...rulesSettingsEn,
  ...toolViewSettingsEn,
  ...usageEn,
  ...askReasonEn,
  ...layoutEn,
  ...changesEn,
  ...importReviewEn,
} as const;

export type MessageKey = keyof typeof en;
export type Dictionary = Record<MessageKey, string>;
