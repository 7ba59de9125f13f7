// Settings → Agent → Skills: what the skills module finds in a workspace (.agents/skills, .i/skills) and every
// problem it met, each with its code (seed 000 §9: problems never stop discovery; they come here instead of going
// unnoticed). The workspace is the one chosen in "Applies to", else the open one. Read on demand ("Check again").
import { createResource, createSignal, createUniqueId, For, Show } from 'solid-js';
import { createFsaWorkspaceFs } from '../../../core/contracts';
import { openWorkspaceFs, queryWorkspaceAccess, type SkillCatalog, type WorkspaceRecord } from '../../../core/page';
import { skillCatalogWith } from '../../../core/page';
import type { AppState } from '../../state/app-state';

/** `lend`: other workspaces whose folders lend their skills (as chosen in the form above). */
export function SkillsSection(props: { state: AppState; scope: string | null; lend: readonly string[] }) {
  const s = props.state;
  const t = s.t;
  const id = createUniqueId();
  const [round, setRound] = createSignal(0);
  const workspace = () => {
    const wanted = props.scope ?? s.selected()?.id;
    return s.workspaces().find((w) => w.id === wanted);
  };
  // null: the folder's access is not granted now (the person restores it from the workspace view).
  const [catalog] = createResource(
    () => workspace() && { w: workspace()!, lend: [...props.lend], round: round() },
    async ({ w, lend }): Promise<SkillCatalog | null> => {
      if ((await queryWorkspaceAccess(w)) !== 'granted') return null;
      const open = (record: WorkspaceRecord) =>
        openWorkspaceFs({ ...record, access: 'read' }, (handle) =>
          createFsaWorkspaceFs(handle, {
            access: 'read',
            rootName: record.kind === 'opfs' ? record.name : handle.name,
          }),
        );
      const lender = async (id: string) => {
        const record = s.workspaces().find((x) => x.id === id);
        return record ? { name: record.name, fs: await open(record) } : null;
      };
      return skillCatalogWith(await open(w), w.id, lend, lender);
    },
  );
  return (
    <section class="form agent-form rules-section" aria-labelledby={`${id}-title`} data-testid="skills-status">
      <h3 id={`${id}-title`}>{t('agentSkills.title')}</h3>
      <Show when={workspace()} fallback={<p class="field-hint">{t('agentSkills.pickWorkspace')}</p>}>
        {(w) => (
          <>
            <p class="rules-scope">{t('agentSkills.forWorkspace', { name: w().name })}</p>
            <Show when={catalog.latest !== undefined} fallback={<p class="field-hint">{t('agentSkills.reading')}</p>}>
              <Show when={catalog.latest} fallback={<p class="field-hint">{t('agentSkills.noAccess')}</p>}>
                {(c) => (
                  <>
                    <p class="field-hint">
                      {c().skills.length
                        ? t('agentSkills.found', {
                            count: c().skills.length,
                            names: c()
                              .skills.map((k) => k.name)
                              .join(', '),
                          })
                        : t('agentSkills.none')}
                    </p>
                    <Show when={c().problems.length > 0}>
                      <ul class="rules-list" aria-label={t('agentSkills.problems')}>
                        <For each={c().problems}>
                          {(p) => (
                            <li class="field-error">
                              <code>{p.code}</code> {p.message}
                            </li>
                          )}
                        </For>
                      </ul>
                    </Show>
                  </>
                )}
              </Show>
            </Show>
            <div class="agent-row-inline">
              <button type="button" class="button small" onClick={() => setRound(round() + 1)}>
                {t('agentSkills.check')}
              </button>
            </div>
          </>
        )}
      </Show>
    </section>
  );
}
