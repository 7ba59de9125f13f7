// A progress bar in files and bytes, shared by the zip download and the zip import. A native <progress> (role
// progressbar) measured in bytes, since one large file can take longer than a thousand small ones.
import { Show } from 'solid-js';
import type { ZipProgress } from '../../core/page';
import { formatBytes, type Locale } from '../i18n/i18n';

export function ZipProgressBar(props: { label: string; text: string; progress: ZipProgress | null }) {
  const max = () => Math.max(props.progress?.bytesTotal ?? 0, 1);
  const value = () => {
    const p = props.progress;
    if (!p) return undefined;
    // A tree of empty files still moves: count files when there are no bytes.
    return p.bytesTotal > 0 ? p.bytesDone : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 1;
  };
  return (
    <div class="zip-progress">
      {/* Without a value the bar is indeterminate (still listing); `value` cannot be set to undefined. */}
      <Show when={value() !== undefined} fallback={<progress aria-label={props.label} />}>
        <progress
          aria-label={props.label}
          max={props.progress && props.progress.bytesTotal === 0 ? 1 : max()}
          value={value() as number}
        />
      </Show>
      <p class="meta-text" role="status">
        {props.text}
      </p>
    </div>
  );
}

export function progressText(
  template: (params: Record<string, string | number>) => string,
  p: ZipProgress,
  locale: Locale,
): string {
  const number = (n: number) => n.toLocaleString(locale === 'zh' ? 'zh-CN' : 'en-US');
  return template({
    done: number(p.filesDone),
    total: number(p.filesTotal),
    bytesDone: formatBytes(p.bytesDone, locale),
    bytesTotal: formatBytes(p.bytesTotal, locale),
  });
}
