// "Rewind to here" (issue 16): the person chooses what goes back to before one of their messages — the conversation
// and the files, the files only, or the conversation only — seeing which files that means before anything runs. The
// Worker does the rewind (chat.undo.rewind); a file the person edited since the agent left it stops everything
// (E_REVERT_CONFLICT) until they choose "Rewind anyway"; a message without an undo record can still rewind the
// conversation. Message actions reach the dialog through RewindContext, provided by the chat view.
import { createContext, createResource, createSignal, createUniqueId, For, Match, Show, Switch } from 'solid-js';
import type { ErrorData } from '../../core/contracts';
import type { RewindMode, RewindResult } from '../../core/page';
import './rewind.css';
import { Dialog } from '../components/dialog';
import type { ChatController } from './chat-controller';
import type { ChatKey, ChatTranslate } from './chat-i18n';
import { quote, rewindPreview } from './rewind-model';
import type { UndoEvents } from './undo-events';

export const RewindContext = createContext<{ open(index: number, text: string): void }>();

export const RewindIcon = () => (
  <svg
    class="icon"
    viewBox="0 0 16 16"
    width="14"
    height="14"
    fill="none"
    stroke="currentColor"
    stroke-width="1.5"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
  >
    <path d="M3 3.5v3.5h3.5" />
    <path d="M3.3 7A5 5 0 1 1 4.6 11.4" />
  </svg>
);

const MODES: Array<{ mode: RewindMode; label: ChatKey; hint: ChatKey }> = [
  { mode: 'both', label: 'rewind.both', hint: 'rewind.bothHint' },
  { mode: 'files', label: 'rewind.files', hint: 'rewind.filesHint' },
  { mode: 'conversation', label: 'rewind.conversation', hint: 'rewind.conversationHint' },
];

type Problem =
  | { kind: 'conflict'; mode: RewindMode; paths: string[] }
  | { kind: 'no-checkpoint' }
  | { kind: 'error'; code: string; message: string };

/** A few paths for a sentence; the rest counted. */
function pathList(paths: readonly string[], ct: ChatTranslate): string {
  const shown = paths.slice(0, 4).join(', ');
  return paths.length > 4 ? ct('rewind.more', { paths: shown, count: paths.length - 4 }) : shown;
}

export function RewindDialog(props: {
  chat: Pick<ChatController, 'messages' | 'undo'>;
  events: Pick<UndoEvents, 'add' | 'during'>;
  ct: ChatTranslate;
  index: number;
  text: string;
  /** After a rewind: the conversation part puts the prompt back in the composer. */
  onRewound: (mode: RewindMode, result: RewindResult) => void;
  onClose: () => void;
}) {
  const ct = props.ct;
  const [changes] = createResource(() => props.chat.undo.changes().catch(() => null));
  const files = () => (changes.state === 'ready' ? rewindPreview(props.chat.messages(), props.index, changes()) : null);
  const [mode, setMode] = createSignal<RewindMode>('both');
  const [running, setRunning] = createSignal(false);
  const [problem, setProblem] = createSignal<Problem | null>(null);
  const formId = createUniqueId();

  async function rewind(chosen: RewindMode, force?: boolean) {
    if (running()) return;
    setRunning(true);
    setProblem(null);
    try {
      const result = await props.events.during(() => props.chat.undo.rewind(props.index, chosen, force));
      const group = result.files?.group;
      props.events.add({
        kind: 'rewind',
        mode: chosen,
        prompt: quote(props.text),
        files: result.files?.files.length ?? 0,
        ...(group ? { group } : {}),
      });
      props.onRewound(chosen, result);
      props.onClose();
    } catch (error) {
      const e = error as ErrorData;
      if (e?.code === 'E_REVERT_CONFLICT') {
        const conflicts = (e.data as { conflicts?: Array<{ path: string }> } | undefined)?.conflicts ?? [];
        setProblem({ kind: 'conflict', mode: chosen, paths: conflicts.map((c) => c.path) });
      } else if (e?.code === 'E_REWIND_NO_CHECKPOINT') setProblem({ kind: 'no-checkpoint' });
      else setProblem({ kind: 'error', code: e?.code ?? 'E_REWIND_FAILED', message: e?.message ?? String(error) });
    } finally {
      setRunning(false);
    }
  }

  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void rewind(mode());
  };

  const footer = (
    <Switch
      fallback={
        <>
          <button type="button" class="button" onClick={() => props.onClose()}>
            {ct('rewind.cancel')}
          </button>
          <button type="submit" form={formId} class="button primary" disabled={running()}>
            {running() ? ct('rewind.running') : ct('rewind.run')}
          </button>
        </>
      }
    >
      <Match when={problem()?.kind === 'conflict' && (problem() as Problem & { kind: 'conflict' })}>
        {(p) => (
          <>
            <button type="button" class="button" onClick={() => props.onClose()}>
              {ct('rewind.cancel')}
            </button>
            <button
              type="button"
              class="button danger"
              disabled={running()}
              onClick={() => void rewind(p().mode, true)}
            >
              {ct('rewind.anyway')}
            </button>
          </>
        )}
      </Match>
      <Match when={problem()?.kind === 'no-checkpoint'}>
        <button type="button" class="button" onClick={() => props.onClose()}>
          {ct('rewind.cancel')}
        </button>
        <button type="button" class="button primary" disabled={running()} onClick={() => void rewind('conversation')}>
          {ct('rewind.conversationOnly')}
        </button>
      </Match>
    </Switch>
  );

  return (
    <Dialog title={ct('rewind.title')} onClose={props.onClose} closeLabel={ct('rewind.cancel')} footer={footer}>
      <div class="rewind-dialog" data-testid="rewind-dialog">
        <p class="rewind-prompt">{ct('rewind.prompt', { prompt: quote(props.text, 120) })}</p>
        <Show
          when={problem()?.kind !== 'conflict' && problem()?.kind !== 'no-checkpoint'}
          fallback={
            <div class="rewind-problem" role="alert">
              <Show
                when={problem()?.kind === 'conflict' && (problem() as Problem & { kind: 'conflict' })}
                fallback={<p>{ct('rewind.noCheckpoint')}</p>}
              >
                {(p) => (
                  <>
                    <strong>{ct('rewind.conflictTitle')}</strong>
                    <p>{ct('rewind.conflict', { paths: pathList(p().paths, ct) })}</p>
                  </>
                )}
              </Show>
            </div>
          }
        >
          <form id={formId} onSubmit={submit}>
            <fieldset class="rewind-choices">
              <legend class="visually-hidden">{ct('rewind.choices')}</legend>
              <For each={MODES}>
                {(m) => (
                  <label class="rewind-choice" classList={{ chosen: mode() === m.mode }}>
                    <input
                      type="radio"
                      name="rewind-mode"
                      value={m.mode}
                      checked={mode() === m.mode}
                      onChange={() => setMode(m.mode)}
                    />
                    <span>
                      <span class="rewind-choice-label">{ct(m.label)}</span>
                      <span class="rewind-choice-hint">{ct(m.hint)}</span>
                    </span>
                  </label>
                )}
              </For>
            </fieldset>
          </form>
          <p class="field-hint rewind-files" data-testid="rewind-files">
            <Show when={files()} fallback={ct('rewind.loading')}>
              {(list) =>
                list().length === 0
                  ? ct('rewind.noFiles')
                  : ct(list().length === 1 ? 'rewind.fileOne' : 'rewind.fileCount', {
                      count: list().length,
                      paths: pathList(
                        list().map((f) => f.path),
                        ct,
                      ),
                    })
              }
            </Show>
          </p>
          <Show
            when={files()
              ?.filter((f) => f.changedSince)
              .map((f) => f.path)}
          >
            {(since) => (
              <Show when={since().length > 0}>
                <p class="field-hint rewind-since">{ct('rewind.changedSince', { paths: pathList(since(), ct) })}</p>
              </Show>
            )}
          </Show>
          <Show when={problem()?.kind === 'error' && (problem() as Problem & { kind: 'error' })}>
            {(p) => (
              <p class="field-error" role="alert">
                {ct('rewind.failed', { code: p().code, message: p().message })}
              </p>
            )}
          </Show>
        </Show>
      </div>
    </Dialog>
  );
}
