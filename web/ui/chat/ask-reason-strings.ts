// Why a write always asks (plugin-host/fs/write-policy.ts, one sentence per class) and the path line of a call card,
// in both languages. Shared by the chat's approval card (chat-i18n.ts) and the plugin write dialog (web/ui/i18n), so
// the two never say it differently.
import type { AskReason } from '../../core/contracts';

export const askReasonEn = {
  'write.askAlways': 'Always asked, even in auto mode: {reason}.',
  'write.callPath': 'Path: {path}',
  'write.askReason.vscode':
    'opening this folder in VS Code applies settings and tasks from this file, which can run programs',
  'write.askReason.idea':
    'opening this folder in a JetBrains IDE applies run configurations and settings from this file, which can run programs',
  'write.askReason.devcontainer': 'opening this folder in a dev container runs the commands this file names',
  'write.askReason.envrc': 'direnv runs this file as a shell script when a terminal enters the folder',
  'write.askReason.git-hooks': 'git hook managers run the commands in this file on commit or push',
  'write.askReason.ci': 'CI runs the commands in this file, with the repository’s secrets, when it is pushed',
  'write.askReason.git-files':
    'git reads this file on checkout and diff: it can name filters and submodule URLs that run or fetch code',
  'write.askReason.package-manager':
    'npm and yarn read this file on every command: it can change the registry or the shell that runs scripts',
} as const satisfies Record<'write.askAlways' | 'write.callPath' | `write.askReason.${AskReason}`, string>;

export const askReasonZh: Record<keyof typeof askReasonEn, string> = {
  'write.askAlways': '此操作总是需要确认，自动模式下也是如此：{reason}。',
  'write.callPath': '路径：{path}',
  'write.askReason.vscode': '在 VS Code 中打开此文件夹会应用此文件中的设置和任务，它们可以运行程序',
  'write.askReason.idea': '在 JetBrains IDE 中打开此文件夹会应用此文件中的运行配置和设置，它们可以运行程序',
  'write.askReason.devcontainer': '在开发容器中打开此文件夹会运行此文件指定的命令',
  'write.askReason.envrc': '终端进入此文件夹时，direnv 会把此文件当作 shell 脚本运行',
  'write.askReason.git-hooks': 'Git 钩子管理工具会在提交或推送时运行此文件中的命令',
  'write.askReason.ci': '推送后，CI 会使用仓库的密钥运行此文件中的命令',
  'write.askReason.git-files': 'Git 在检出和比较时读取此文件：它可以指定会运行或下载代码的过滤器和子模块地址',
  'write.askReason.package-manager': 'npm 和 yarn 每次运行都会读取此文件：它可以更改软件源或运行脚本所用的 shell',
};

/** The key of a reason's sentence. */
export const askReasonKey = (reason: AskReason) => `write.askReason.${reason}` as const;
