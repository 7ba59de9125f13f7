// Asks before a package replaces an installed plugin of the same id: old → new version and SHA-256 (short, the full
// hash on hover and when copied), permission changes, and that its private storage stays. Nothing has been stored
// yet; Cancel, Escape and closing keep the installed plugin. Focus starts on Cancel, the safe choice.
import { Show, type JSX } from 'solid-js';
import type { PreparedImport } from '../../../core/page';
import { Dialog } from '../../components/dialog';
import type { Translate } from '../../i18n/i18n';
import { shortHash, shownName } from './shown-text';

type Access = 'none' | 'read' | 'read-write';

/** A hash shown short; hovering shows it whole, and copying any part of it copies it whole. */
function Hash(props: { hex: string; testId: string }) {
  return (
    <code
      class="plugin-hash"
      title={props.hex}
      data-testid={props.testId}
      data-full={props.hex}
      onCopy={(e) => {
        e.preventDefault();
        e.clipboardData?.setData('text/plain', props.hex);
      }}
    >
      {shortHash(props.hex)}
    </code>
  );
}

/** `from → to` on one line, or with `stacked` (long values such as hashes) the new value under the old, aligned. */
function Change(props: {
  label: string;
  from: JSX.Element;
  to: JSX.Element;
  same: boolean;
  sameText: string;
  stacked?: boolean;
}) {
  return (
    <>
      <dt>{props.label}</dt>
      <dd class="plugin-change" classList={{ stacked: props.stacked === true }}>
        <span>{props.from}</span>
        <span>
          <span class="plugin-change-arrow">→</span> {props.to}
          <Show when={props.same}>
            {' '}
            <span class="meta-text">({props.sameText})</span>
          </Show>
        </span>
      </dd>
    </>
  );
}

export function UpdatePluginDialog(props: {
  t: Translate;
  prepared: PreparedImport;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = props.t;
  let answered = false;
  const answer = (confirm: boolean) => {
    if (answered) return;
    answered = true;
    if (confirm) props.onConfirm();
    else props.onCancel();
  };
  const plan = () => props.prepared.plan;
  const from = () => plan().installed!;
  const to = () => plan().incoming;
  const access = (a: Access) =>
    t(a === 'none' ? 'plugins.accessNone' : a === 'read' ? 'plugins.accessRead' : 'plugins.accessReadWrite');
  const perms = (p: { workspace: Access; storage: boolean }) =>
    `${t('plugins.permWorkspace', { access: access(p.workspace) })} · ${t('plugins.permStorage', { on: p.storage ? t('plugins.yes') : t('plugins.no') })}`;
  const lead = () =>
    plan().versionChange === 'downgrade'
      ? 'plugins.updateOlder'
      : plan().versionChange === 'same-version'
        ? 'plugins.updateSameVersion'
        : 'plugins.updateNewer';
  return (
    <Dialog
      title={t('plugins.updateTitle', { name: shownName(to().name) })}
      onClose={() => answer(false)}
      closeLabel={t('plugins.updateCancel')}
      footer={
        <>
          <button type="button" class="button" autofocus onClick={() => answer(false)}>
            {t('plugins.updateCancel')}
          </button>
          <button type="button" class="button primary" onClick={() => answer(true)}>
            {t('plugins.updateConfirm')}
          </button>
        </>
      }
    >
      <div class="plugin-update" data-testid="plugin-update">
        <p>
          <code>{shownName(to().id)}</code> {t(lead())} {t('plugins.updateNothingYet')}
        </p>
        <dl class="plugin-facts">
          <Show when={from().name !== to().name}>
            <Change
              label={t('plugins.updateName')}
              from={<span>{shownName(from().name)}</span>}
              to={<span>{shownName(to().name)}</span>}
              same={false}
              sameText=""
            />
          </Show>
          <Change
            label={t('plugins.updateVersion')}
            from={<span data-testid="update-from-version">{from().version}</span>}
            to={<strong data-testid="update-to-version">{to().version}</strong>}
            same={from().version === to().version}
            sameText={t('plugins.updateSame')}
          />
          <Change
            label={t('plugins.sha256')}
            from={<Hash hex={from().sha256} testId="update-from-sha256" />}
            to={<Hash hex={to().sha256} testId="update-to-sha256" />}
            stacked
            same={from().sha256 === to().sha256}
            sameText={t('plugins.updateSame')}
          />
          <Show when={perms(from().permissions) !== perms(to().permissions)}>
            <Change
              label={t('plugins.permissions')}
              from={<span>{perms(from().permissions)}</span>}
              to={<strong>{perms(to().permissions)}</strong>}
              stacked
              same={false}
              sameText=""
            />
          </Show>
        </dl>
        <Show when={plan().widensPermissions}>
          <p class="plugin-update-warning">{t('plugins.updateWidens')}</p>
        </Show>
        <p data-testid="update-storage">{t('plugins.updateKeepsStorage', { count: props.prepared.storedEntries })}</p>
        <p class="field-hint">{t('plugins.hashNote')}</p>
      </div>
    </Dialog>
  );
}
