// Settings → Model → In this browser (issue 21): the GGUF models stored in this origin's OPFS (size, SHA-256, use,
// delete with the space freed), adding one from disk or from an HTTPS address (progress, stop, resume), the dated
// suggestions, the context window with the memory estimate, and — while the model runs — tokens/s and memory.
import './browser-model.css';
import { createSignal, For, onCleanup, Show } from 'solid-js';
import { saveModel } from '../../../core/page';
import {
  deleteStoredModel,
  downloadModel,
  estimateMemory,
  formatBytes,
  importModelFile,
  listStoredModels,
  memoryAvailable,
  openStoredModel,
  partialDownloads,
  readGgufHeader,
  SUGGESTED_MODELS,
  SUGGESTED_MODELS_DATE,
  watchStatus,
  type BrowserModelStatus,
  type PartialDownload,
  type StoredModel,
} from '../../../core/page';
import { codeOf, messageOf } from '../../state/errors';
import type { AppState } from '../../state/app-state';
import { browserModelText } from './strings';
import { FilePick } from '../../components/file-pick';

export interface BrowserModelSectionProps {
  state: AppState;
  /** The scope Settings → Model edits (null: global). */
  scope: string | null;
  /** The model now configured (to mark the one in use). */
  current: string | null;
  /** Called after "Use this model" saved the config. */
  onUsed(): void;
}

const deviceMemory = () => (navigator as Navigator & { deviceMemory?: number }).deviceMemory;

export function BrowserModelSection(props: BrowserModelSectionProps) {
  const s = props.state;
  const t = browserModelText(s.locale);
  // Plain signals, not a resource: a loading resource would suspend the lazy view around the first-run dialog
  // (web/ui/onboarding/CONTEXT.md) and the Settings panel.
  const [models, setModels] = createSignal<{ stored: StoredModel[]; partial: PartialDownload[] }>({
    stored: [],
    partial: [],
  });
  const refetch = async () => {
    try {
      setModels({ stored: await listStoredModels(), partial: await partialDownloads() });
    } catch (error) {
      fail(error);
    }
  };
  void Promise.resolve().then(refetch);
  const [ctx, setCtx] = createSignal('4096');
  const [url, setUrl] = createSignal('');
  const [progress, setProgress] = createSignal<string | null>(null);
  const [note, setNote] = createSignal<{ ok: boolean; text: string } | null>(null);
  const [estimate, setEstimate] = createSignal<string | null>(null);
  const [running, setRunning] = createSignal<BrowserModelStatus | null>(null);
  let stopper: AbortController | null = null;
  onCleanup(watchStatus((st) => setRunning(st)));
  onCleanup(() => stopper?.abort());

  const fail = (error: unknown) =>
    setNote({ ok: false, text: `${codeOf(error) ?? 'E_BROWSER_MODEL'}: ${messageOf(error)}` });
  const bytesOf = (n: number | null) => (n === null ? '?' : formatBytes(n));

  async function explain(name: string) {
    try {
      const file = await openStoredModel(name);
      const header = await readGgufHeader(file);
      const n = Number(ctx());
      const e = estimateMemory(header, file.size, Number.isFinite(n) && n > 0 ? n : 4096);
      setEstimate(
        `${t('contextHint', { trained: header.contextLength ?? '?' })} ${t('estimate', { need: formatBytes(e.total), available: formatBytes(memoryAvailable(deviceMemory())) })}`,
      );
    } catch (error) {
      fail(error);
    }
  }

  async function use(name: string) {
    setNote(null);
    const n = Number(ctx());
    try {
      await saveModel(s.db, props.scope, {
        config: {
          protocol: 'browser',
          model: name,
          max_tokens: 1024,
          budget: { context_window: Number.isInteger(n) && n > 0 ? n : 4096 },
        },
        preset: null,
      });
      s.settingsChanged();
      setNote({ ok: true, text: t('saved', { name, ctx: ctx() }) });
      props.onUsed();
    } catch (error) {
      fail(error);
    }
  }

  async function remove(name: string) {
    setNote(null);
    try {
      const freed = await deleteStoredModel(name);
      setNote({ ok: true, text: t('removed', { name, size: formatBytes(freed) }) });
      await refetch();
    } catch (error) {
      fail(error);
    }
  }

  async function addFile(file: File | undefined) {
    if (!file) return;
    setNote(null);
    try {
      await importModelFile(file, (done, total) =>
        setProgress(t('adding', { name: file.name, done: formatBytes(done), total: formatBytes(total) })),
      );
      await refetch();
      await explain(file.name);
    } catch (error) {
      fail(error);
    } finally {
      setProgress(null);
    }
  }

  async function download(address: string) {
    setNote(null);
    stopper = new AbortController();
    try {
      const m = await downloadModel(address, {
        signal: stopper.signal,
        onProgress: (done, total) =>
          setProgress(
            t('downloading', { name: address.split('/').pop() ?? '', done: formatBytes(done), total: bytesOf(total) }),
          ),
      });
      await explain(m.name);
    } catch (error) {
      fail(error);
    } finally {
      stopper = null;
      setProgress(null);
      await refetch();
    }
  }

  const statusLine = () => {
    const r = running();
    if (!r) return null;
    const state =
      r.state === 'loading' ? t('stateLoading') : r.state === 'generating' ? t('stateGenerating') : t('stateIdle');
    return t('running', {
      state,
      tps: r.tokensPerSecond ? r.tokensPerSecond.toFixed(1) : '–',
      memory: r.memoryBytes ? formatBytes(r.memoryBytes) : '–',
      ctx: r.nCtx ?? '–',
      threads: r.threads ?? '–',
    });
  };

  return (
    <section class="browser-model" aria-labelledby="browser-model-title">
      <h3 id="browser-model-title">{t('title')}</h3>
      <p class="field-hint">{t('intro')}</p>
      <Show when={statusLine()}>
        <p class="browser-model-status" role="status" data-testid="browser-model-status">
          {statusLine()}
        </p>
      </Show>
      <h4>{t('stored')}</h4>
      <Show when={models().stored.length > 0} fallback={<p class="field-hint">{t('none')}</p>}>
        <ul class="browser-model-list">
          <For each={models().stored}>
            {(m) => (
              <li>
                <div class="browser-model-name">
                  <strong>{m.name}</strong>
                  <Show when={props.current === m.name}>
                    <span class="browser-model-badge">{t('inUse')}</span>
                  </Show>
                </div>
                <div class="field-hint">
                  {t('size')}: {formatBytes(m.size)} · {t('sha')}:{' '}
                  <code title={m.sha256}>{m.sha256.slice(0, 16)}…</code>
                </div>
                <div class="browser-model-actions">
                  <button
                    type="button"
                    class="button primary"
                    aria-label={`${t('use')}: ${m.name}`}
                    onClick={() => void use(m.name)}
                  >
                    {t('use')}
                  </button>
                  <button
                    type="button"
                    class="button"
                    aria-label={`${t('remove')}: ${m.name}`}
                    onClick={() => void remove(m.name)}
                  >
                    {t('remove')}
                  </button>
                </div>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <For each={models().partial}>
        {(p) => (
          <p class="field-hint">
            {t('partial', { name: p.name, done: formatBytes(p.have), total: bytesOf(p.total) })}{' '}
            <button type="button" class="button" onClick={() => void download(p.url)}>
              {t('resume')}
            </button>
          </p>
        )}
      </For>
      <div class="form-grid">
        <div class="field">
          <label for="browser-model-ctx">{t('context')}</label>
          <input
            id="browser-model-ctx"
            type="text"
            inputMode="numeric"
            value={ctx()}
            onInput={(e) => setCtx(e.currentTarget.value.trim())}
          />
        </div>
        <div class="field">
          <span class="field-label" id="browser-model-file-label">
            {t('addFile')}
          </span>
          <FilePick
            id="browser-model-file"
            labelledBy="browser-model-file-label"
            button={t('chooseFile')}
            none={t('noFileChosen')}
            accept=".gguf"
            onFile={(file) => void addFile(file)}
          />
        </div>
        <Show when={estimate()}>
          <p class="field-hint span-2">{estimate()}</p>
        </Show>
        <div class="field span-2">
          <label for="browser-model-url">{t('urlLabel')}</label>
          <div class="browser-model-url">
            <input
              id="browser-model-url"
              type="text"
              inputMode="url"
              spellcheck={false}
              placeholder="https://…/model.gguf"
              value={url()}
              onInput={(e) => setUrl(e.currentTarget.value.trim())}
            />
            <Show
              when={progress() && stopper}
              fallback={
                <button
                  type="button"
                  class="button"
                  disabled={!url() || progress() !== null}
                  onClick={() => void download(url())}
                >
                  {t('download')}
                </button>
              }
            >
              <button type="button" class="button" onClick={() => stopper?.abort()}>
                {t('stop')}
              </button>
            </Show>
          </div>
        </div>
      </div>
      <Show when={progress()}>
        <p class="field-hint" role="status">
          {progress()}
        </p>
      </Show>
      <Show when={note()}>
        <p
          class={note()!.ok ? 'field-success' : 'field-error'}
          role={note()!.ok ? 'status' : 'alert'}
          data-testid="browser-model-note"
        >
          {note()!.text}
        </p>
      </Show>
      <details class="browser-model-suggested">
        <summary>{t('suggested', { date: SUGGESTED_MODELS_DATE })}</summary>
        <p class="field-hint">{t('suggestedHint')}</p>
        <ul>
          <For each={SUGGESTED_MODELS}>
            {(m) => (
              <li>
                <strong>{m.name}</strong> · ≈ {m.sizeMb} MB · {t('licence')}: {m.licence} ·{' '}
                <a href={m.page} target="_blank" rel="noreferrer noopener">
                  {t('page')}
                </a>{' '}
                <button type="button" class="button" onClick={() => setUrl(m.url)}>
                  {t('download')}…
                </button>
              </li>
            )}
          </For>
        </ul>
      </details>
    </section>
  );
}
