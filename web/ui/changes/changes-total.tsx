// The session header's "+N −M": what the open session changed in total, a button that opens the Changes tab.
// Nothing shows until the session changed a file.
import { Show, type Resource } from 'solid-js';
import type { SessionChanges } from '../../core/page';
import { openSidePanelTab } from '../components/side-panel';
import type { Translate } from '../i18n/i18n';
import './changes.css';

export function ChangesTotal(props: { t: Translate; changes: Resource<SessionChanges | null> }) {
  const totals = () => props.changes.latest?.totals ?? null;
  return (
    <Show when={totals()?.files ? totals() : null}>
      {(n) => (
        <button
          type="button"
          class="changes-total"
          // The name starts with the figures shown (WCAG 2.5.3, label in name), then says them in words.
          aria-label={`+${n().added}−${n().removed}: ${props.t('changes.totalLabel', { files: n().files, added: n().added, removed: n().removed })}`}
          title={props.t('changes.totalLabel', { files: n().files, added: n().added, removed: n().removed })}
          onClick={() => openSidePanelTab('changes')}
        >
          <span class="added">+{n().added}</span>
          <span class="removed">−{n().removed}</span>
        </button>
      )}
    </Show>
  );
}
