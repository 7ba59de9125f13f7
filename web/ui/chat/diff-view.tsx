// A unified diff (the `prepared.detail` of an edit or write, or a plugin write's diff) with added, removed and hunk
// lines tinted across the width (each line a box; the newline stays outside it, so copying gives the diff text). Shared by the approval card and the tool card, so a diff looks the same before and after approval.
import { For } from 'solid-js';

const lineClass = (line: string) =>
  line.startsWith('+') && !line.startsWith('+++')
    ? 'diff-add'
    : line.startsWith('-') && !line.startsWith('---')
      ? 'diff-del'
      : line.startsWith('@@')
        ? 'diff-hunk'
        : undefined;

export function DiffView(props: { diff: string; label: string }) {
  return (
    <pre class="code diff" aria-label={props.label}>
      <For each={props.diff.replace(/\n$/, '').split('\n')}>
        {(line, i) =>
          // The ---/+++ file lines (the first two, before any hunk) hold their newline, so a view may hide them whole.
          i() < 2 && /^(---|\+\+\+) /.test(line) ? (
            <span class="diff-file">
              <span class="diff-line">{line}</span>
              {'\n'}
            </span>
          ) : (
            <>
              <span class={`diff-line ${lineClass(line) ?? ''}`}>{line}</span>
              {'\n'}
            </>
          )
        }
      </For>
    </pre>
  );
}
