// Settings → Import: the review shown when a file would loosen a protection or send a stored key somewhere new
// (web/core/settings/import-trust.ts). Each change in plain words with where it applies; nothing is written until
// the person picks "Apply, including these changes" (the previewed ids are confirmed), "Apply the safe part only"
// or Cancel. The safe choice is the prominent one.
import { For, onMount } from 'solid-js';
import type { TrustChange } from '../../core/page';
import type { Translate } from '../i18n/i18n';
import type { MessageKey } from '../i18n/en';
import './settings-import-review.css';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : str(v));

/** One change in the person's language (the core's English sentence is the fallback for a kind this UI does not know). */
export function describeTrustChange(t: Translate, c: TrustChange): string {
  const d = c.data;
  const pathed = (plain: MessageKey, withPath: MessageKey) =>
    d.path ? t(withPath, { tool: str(d.tool), path: str(d.path) }) : t(plain, { tool: str(d.tool) });
  switch (c.kind) {
    case 'key_origin':
      if (d.part === 'web_search') return t('importReview.keyOriginSearch', { key: str(d.key), origin: str(d.origin) });
      return d.from
        ? t('importReview.keyOriginFrom', { key: str(d.key), origin: str(d.origin), from: str(d.from) })
        : t('importReview.keyOrigin', { key: str(d.key), origin: str(d.origin) });
    case 'provider_operations':
      return t(d.field === 'provider_cleanup' ? 'importReview.providerCleanup' : 'importReview.providerOperations');
    case 'git_writes':
      return t('importReview.gitWrites');
    case 'approval_mode':
      return t(d.to === 'yolo' ? 'importReview.approvalYolo' : 'importReview.approvalAuto', { from: str(d.from) });
    case 'allow_rule':
      return pathed('importReview.allowRule', 'importReview.allowRulePath');
    case 'rule_removed':
      return d.decision === 'deny'
        ? pathed('importReview.ruleRemovedDeny', 'importReview.ruleRemovedDenyPath')
        : pathed('importReview.ruleRemovedAsk', 'importReview.ruleRemovedAskPath');
    case 'deny_tools_removed':
      return t('importReview.denyToolsRemoved', { tools: list(d.tools) });
    case 'skill_workspaces':
      return t('importReview.skillWorkspaces', { workspaces: list(d.workspaces) });
    default:
      return c.message;
  }
}

export function ImportReview(props: {
  t: Translate;
  fileName: string;
  changes: TrustChange[];
  busy: boolean;
  onApplyAll: () => void;
  onApplySafe: () => void;
  onCancel: () => void;
}) {
  const t = props.t;
  // Keyboard and screen-reader users land on the review, not on the file input they just used.
  const focusOnMount = (el: HTMLHeadingElement) => onMount(() => el.focus());
  return (
    <section class="import-review" aria-labelledby="import-review-title" data-testid="import-review">
      <div class="import-review-head">
        <svg class="import-review-icon" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 3 4 6v6c0 4.4 3.4 8.3 8 9 4.6-.7 8-4.6 8-9V6l-8-3Z" />
          <path d="M12 8v5" />
          <path d="M12 16.5v.01" />
        </svg>
        <div>
          <h3 id="import-review-title" tabIndex={-1} ref={focusOnMount}>
            {t('importReview.title')}
          </h3>
          <p class="import-review-intro">{t('importReview.intro', { file: props.fileName })}</p>
        </div>
      </div>
      <ul class="import-review-list">
        <For each={props.changes}>
          {(c) => (
            <li>
              <span class="import-review-scope">{c.workspace ?? t('importReview.everywhere')}</span>
              <span class="import-review-text">{describeTrustChange(t, c)}</span>
            </li>
          )}
        </For>
      </ul>
      <div class="import-review-actions">
        <button type="button" class="button primary" disabled={props.busy} onClick={() => props.onApplySafe()}>
          {t('importReview.applySafe')}
        </button>
        <button type="button" class="button danger-outline" disabled={props.busy} onClick={() => props.onApplyAll()}>
          {t('importReview.applyAll')}
        </button>
        <button type="button" class="button ghost" disabled={props.busy} onClick={() => props.onCancel()}>
          {t('importReview.cancel')}
        </button>
      </div>
    </section>
  );
}
