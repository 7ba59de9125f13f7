// Uninstalling a plugin: the code goes and it is switched off everywhere; its private storage (KV in every
// workspace) stays unless the person ticks the box, and the dialog says which. The box is offered whenever data
// exists, even if the installed version no longer asks for storage (an earlier one may have written it).
import { createResource, createSignal, Show } from 'solid-js';
import type { InstalledPlugin } from '../../../core/page';
import type { AppState } from '../../state/app-state';
import { messageOf } from '../../state/errors';
import { Dialog } from '../../components/dialog';
import { pluginServiceFor } from './plugin-runtime';
import { shownName } from './shown-text';

export function UninstallDialog(props: {
  state: AppState;
  plugin: InstalledPlugin;
  onClose: () => void;
  onDone: () => void;
}) {
  const s = props.state;
  const t = s.t;
  const service = pluginServiceFor(s.db);
  // Starts resolved and is read through `.latest`: a resource read while it loads suspends the settings dialog.
  const [entries] = createResource<number | undefined>(() => service.kv.countOf(props.plugin.id), {
    initialValue: undefined,
  });
  const count = () => entries.latest;
  const [deleteData, setDeleteData] = createSignal(false);
  const name = () => shownName(props.plugin.name);
  async function confirm() {
    try {
      await service.registry.uninstall(props.plugin.id, { deleteData: deleteData() });
      s.notify(
        'info',
        t(deleteData() || !count() ? 'plugins.uninstalled' : 'plugins.uninstalledKept', {
          name: name(),
          count: count() ?? 0,
        }),
      );
    } catch (error) {
      s.notify('error', messageOf(error));
    }
    props.onClose();
    props.onDone();
  }
  return (
    <Dialog
      title={t('plugins.uninstallTitle', { name: name() })}
      onClose={props.onClose}
      closeLabel={t('common.cancel')}
      footer={
        <>
          <button type="button" class="button" autofocus onClick={() => props.onClose()}>
            {t('common.cancel')}
          </button>
          <button type="button" class="button danger" onClick={() => void confirm()}>
            {t('plugins.uninstall')}
          </button>
        </>
      }
    >
      <div class="plugin-uninstall">
        <p>{t('plugins.uninstallBody')}</p>
        <p data-testid="uninstall-storage">
          {count() === undefined
            ? '…'
            : count()
              ? t(deleteData() ? 'plugins.uninstallDataGoes' : 'plugins.uninstallDataStays', { count: count() ?? 0 })
              : t('plugins.uninstallNoData')}
        </p>
        <Show when={(count() ?? 0) > 0}>
          <label class="checkbox">
            <input type="checkbox" checked={deleteData()} onChange={(e) => setDeleteData(e.currentTarget.checked)} />
            <span>{t('plugins.uninstallData')}</span>
          </label>
        </Show>
      </div>
    </Dialog>
  );
}
