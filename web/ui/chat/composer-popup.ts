// The composer's one popup menu, as the person sees it: slash commands while the draft starts with "/", the file
// picker after an "@" at the caret. Skills are listed when the slash menu first needs them; the file index when the
// picker opens, again after the agent changed files. Escape (or leaving the box) dismisses the menu for this draft.
import { createEffect, createMemo, createResource, createSignal, type Accessor } from 'solid-js';
import { type WorkspaceFs } from '../../core/contracts';
import { discoverSkills, workspaceSkillRoots } from '../../core/page';
import type { AppState } from '../state/app-state';
import type { ChatTranslate } from './chat-i18n';
import type { ListOption } from './composer-listbox';
import { buildFileIndex, mentionAt, type FileIndex } from './composer-mentions';
import { commandList, matchCommands, slashQuery, type SlashCommand } from './slash-commands';

export type Popup = { kind: 'slash'; query: string } | { kind: 'file'; start: number; query: string };

export interface ComposerPopup {
  popup: Accessor<Popup | null>;
  options: Accessor<ListOption[]>;
  /** The highlighted option, kept inside the list as it shrinks. */
  activeIndex: Accessor<number>;
  setActive: (i: number) => void;
  /** Hides the menu until the draft changes from `draft`; null shows it again. */
  dismiss: (draft: string | null) => void;
  commands: Accessor<SlashCommand[]>;
  files: Accessor<FileIndex | null>;
  /** Lists the skills now (the shortcuts help shows them too). */
  wantSkills: () => void;
}

export function createComposerPopup(args: {
  state: AppState;
  fs: WorkspaceFs;
  draft: Accessor<string>;
  caret: Accessor<number>;
  ct: ChatTranslate;
  onIndexFailed: (message: string) => void;
}): ComposerPopup {
  const { ct } = args;
  const [active, setActive] = createSignal(0);
  const [dismissed, setDismissed] = createSignal<string | null>(null);
  const [wantSkills, setWantSkills] = createSignal(false);
  const [skills] = createResource(wantSkills, async () => (await discoverSkills(workspaceSkillRoots(args.fs))).skills);
  const commands = createMemo(() => commandList(skills.latest ?? []));
  let index: { epoch: number; value: Promise<FileIndex> } | null = null;
  const [files, setFiles] = createSignal<FileIndex | null>(null);
  function fileIndex() {
    const epoch = args.state.filesEpoch().n;
    if (index && index.epoch === epoch) return;
    const value = buildFileIndex(args.fs);
    index = { epoch, value };
    setFiles(null);
    void value
      .then((f) => index?.value === value && setFiles(f))
      .catch((e: unknown) => args.onIndexFailed((e as Error).message));
  }

  const popup = createMemo((): Popup | null => {
    const draft = args.draft();
    if (dismissed() === draft) return null;
    const q = slashQuery(draft);
    if (q !== null) return { kind: 'slash', query: q };
    const m = mentionAt(draft, args.caret());
    return m ? { kind: 'file', ...m } : null;
  });
  const options = createMemo((): ListOption[] => {
    const p = popup();
    if (!p) return [];
    if (p.kind === 'slash') {
      return matchCommands(commands(), p.query).map((c) => ({
        key: c.name,
        label: `/${c.name}`,
        detail: c.kind === 'skill' ? (c.description ?? '') : ct(c.hint),
        ...(c.kind === 'skill' ? { tag: 'skill' } : {}),
      }));
    }
    return (files()?.search(p.query, 30) ?? []).map((path) => {
      const slash = path.lastIndexOf('/');
      return { key: path, label: path.slice(slash + 1), ...(slash > 0 ? { detail: path.slice(0, slash) } : {}) };
    });
  });
  createEffect(() => {
    const kind = popup()?.kind;
    if (kind === 'slash') setWantSkills(true);
    else if (kind === 'file') fileIndex();
  });

  return {
    popup,
    options,
    activeIndex: () => Math.min(active(), Math.max(0, options().length - 1)),
    setActive,
    dismiss: setDismissed,
    commands,
    files,
    wantSkills: () => setWantSkills(true),
  };
}
