// "Keyboard shortcuts": every shortcut of the app and the composer, and the slash commands (opened by /help and from
// the command palette).
import { For } from 'solid-js';
import { Dialog } from '../components/dialog';
import type { ChatTranslate } from './chat-i18n';
import type { ComposerKey } from './composer-strings';
import type { SlashCommand } from './slash-commands';

/** Cmd instead of Ctrl (tinykeys' `$mod`), as the layout's shortcuts also decide it. */
export const isMac =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
/** Shows tinykeys' `$mod` as the platform's key. */
export const keyLabel = (keys: string) => keys.replace('$mod', isMac ? '⌘' : 'Ctrl');

const SHORTCUTS: readonly [string, ComposerKey][] = [
  ['Enter', 'c.k.send'],
  ['Shift+Enter', 'c.k.newline'],
  ['Esc', 'c.k.stop'],
  ['↑', 'c.k.editLast'],
  ['/', 'c.k.slash'],
  ['@', 'c.k.mention'],
  ['$mod+K', 'c.k.palette'],
  ['$mod+Shift+O', 'c.k.newSession'],
  ['$mod+B', 'c.k.sidebar'],
  ['/help', 'c.k.help'],
];

export function ShortcutsHelp(props: { commands: readonly SlashCommand[]; ct: ChatTranslate; onClose: () => void }) {
  const ct = props.ct;
  return (
    <Dialog title={ct('c.shortcuts')} closeLabel={ct('c.close')} onClose={props.onClose}>
      <table class="shortcuts-table">
        <tbody>
          <For each={SHORTCUTS}>
            {([keys, what]) => (
              <tr>
                <th scope="row">
                  <For each={keyLabel(keys).split('+')}>{(k) => <kbd>{k}</kbd>}</For>
                </th>
                <td>{ct(what)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <h3 class="shortcuts-subtitle">{ct('c.commands')}</h3>
      <table class="shortcuts-table">
        <tbody>
          <For each={props.commands}>
            {(c) => (
              <tr>
                <th scope="row">
                  <code>/{c.name}</code>
                </th>
                <td>{c.kind === 'skill' ? ct('c.cmd.skill', { description: c.description ?? '' }) : ct(c.hint)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </Dialog>
  );
}
