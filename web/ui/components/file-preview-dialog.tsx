import { createEffect, createResource, createSignal, Match, onCleanup, Show, Switch } from 'solid-js';
import { MAX_IMAGE_BYTES, sniffImage, type WorkspaceFs } from '../../core/contracts';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { codeOf } from '../state/errors';
import { Dialog } from './dialog';
import { errorText } from './error-text';

const PREVIEW_MAX_BYTES = 1024 * 1024;
/** Names that may be a picture; the bytes decide (PNG, JPEG, GIF, WebP signatures, as view_image checks them). */
const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

type Preview =
  { kind: 'text'; text: string } | { kind: 'binary'; size: number } | { kind: 'image'; url: string; size: number };

async function readPreview(fs: WorkspaceFs, path: string): Promise<Preview> {
  if (IMAGE_NAME.test(path)) {
    const bytes = await fs.readBytes(path, { maxBytes: MAX_IMAGE_BYTES });
    const type = sniffImage(bytes);
    // A blob: URL, shown in an <img> (no script runs there); revoked when the dialog closes.
    if (type)
      return {
        kind: 'image',
        url: URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type })),
        size: bytes.byteLength,
      };
    if (bytes.byteLength > PREVIEW_MAX_BYTES) return { kind: 'binary', size: bytes.byteLength };
  }
  try {
    return { kind: 'text', text: await fs.readText(path, { maxBytes: PREVIEW_MAX_BYTES }) };
  } catch (error) {
    if (codeOf(error) === 'E_FS_NOT_UTF8') return { kind: 'binary', size: (await fs.stat(path))?.size ?? 0 };
    throw error;
  }
}

/**
 * Text with syntax highlighting when its name says a language: the highlighter (Shiki, its grammars loaded per
 * language) is imported only when a file is opened, and the plain text shows until the colours are ready. The
 * highlighter escapes the text and bounds what it tokenises (web/ui/highlight), so a workspace file is safe here.
 */
function CodePreview(props: { path: string; text: string; label: string }) {
  const [html, setHtml] = createSignal<string | null>(null);
  createEffect(() => {
    const { path, text } = props;
    setHtml(null);
    let current = true;
    onCleanup(() => (current = false));
    void import('../highlight/highlighter').then(async ({ highlight, languageOf }) => {
      const lang = languageOf(path);
      const result = lang ? await highlight(text, lang) : null;
      if (current && result) setHtml(result.html);
    });
  });
  return (
    <pre class="file-preview" aria-label={props.label} tabIndex={0} data-highlighted={html() ? 'true' : undefined}>
      <Show when={html()} fallback={props.text}>
        {(h) => <code class="hl" innerHTML={h()} />}
      </Show>
    </pre>
  );
}

/** `onMissing`: the file was gone when opened (removed outside the app), so the list that offered it is stale. */
export function FilePreviewDialog(props: {
  state: AppState;
  fs: WorkspaceFs;
  path: string;
  onClose: () => void;
  onMissing?: () => void;
}) {
  const t = props.state.t;
  const [preview] = createResource(
    () => props.path,
    (path) => readPreview(props.fs, path),
  );
  createEffect(() => {
    const p = preview.state === 'ready' ? preview() : undefined;
    if (p?.kind === 'image') onCleanup(() => URL.revokeObjectURL(p.url));
  });
  createEffect(() => {
    if (codeOf(preview.error) === 'E_FS_NOT_FOUND') props.onMissing?.();
  });
  const failure = (error: unknown): string => {
    if (codeOf(error) !== 'E_FS_TOO_LARGE') return errorText(error, 'E_FS_IO');
    // The port's message offers to raise the limit, which a person cannot do here: say what the preview can show.
    const size = (error as { data?: { size?: unknown } }).data?.size;
    const shown = typeof size === 'number' ? formatBytes(size, props.state.locale()) : '';
    const max = formatBytes(IMAGE_NAME.test(props.path) ? MAX_IMAGE_BYTES : PREVIEW_MAX_BYTES, props.state.locale());
    return `E_FS_TOO_LARGE: ${shown ? t('files.tooLargeSized', { path: props.path, size: shown, max }) : t('files.tooLarge', { path: props.path, max })}`;
  };
  return (
    <Dialog title={props.path} onClose={props.onClose} closeLabel={t('common.close')} wide>
      <Switch>
        <Match when={preview.error}>
          <p class="panel-error" role="alert">
            {failure(preview.error)}
          </p>
        </Match>
        <Match when={preview()}>
          {(p) => {
            const value = p();
            if (value.kind === 'image') {
              return (
                <figure class="image-preview">
                  <img src={value.url} alt={t('files.imageAlt', { path: props.path })} />
                  <figcaption class="meta-text">{formatBytes(value.size, props.state.locale())}</figcaption>
                </figure>
              );
            }
            return value.kind === 'text' ? (
              <CodePreview path={props.path} text={value.text} label={t('files.preview')} />
            ) : (
              <p class="empty-hint">{t('files.binary', { size: formatBytes(value.size, props.state.locale()) })}</p>
            );
          }}
        </Match>
      </Switch>
    </Dialog>
  );
}
