// Settings → Agent → Approval rules for one scope (all workspaces, or the workspace chosen in "Applies to"): list,
// edit, add and remove; saved whole and validated by the core's rule check, so a bad glob is named before anything
// is written. Cards' "Always allow … in folder/" add rules here; each turn reads them when it starts.
import { createEffect, createSignal, createUniqueId, For, on, Show } from 'solid-js';
import { checkRules, type ApprovalDecision, type ApprovalRule } from '../../../core/page';
import { readApprovalRules, readStoredApprovalRules, saveApprovalRules } from '../../../core/page';
import type { AppState } from '../../state/app-state';
import { codeOf, messageOf } from '../../state/errors';

interface Row {
  key: number;
  decision: ApprovalDecision;
  tool: string;
  path: string;
}

const DECISIONS: readonly ApprovalDecision[] = ['allow', 'ask', 'deny'];
const SELECTORS = ['edit', 'write', 'group:writes', 'group:bridge', '*'];

export function RulesSection(props: { state: AppState; scope: string | null }) {
  const s = props.state;
  const t = s.t;
  const id = createUniqueId();
  let nextKey = 1;
  const [rows, setRows] = createSignal<Row[]>([]);
  const [status, setStatus] = createSignal<{ ok: boolean; text: string } | null>(null);
  const toRow = (r: ApprovalRule): Row => ({ key: nextKey++, decision: r.decision, tool: r.tool, path: r.path ?? '' });
  const toRule = (r: Row): ApprovalRule => ({
    decision: r.decision,
    tool: r.tool.trim(),
    ...(r.path.trim() ? { path: r.path.trim() } : {}),
  });

  /** The check's problems, each `rules[i]` named as the row the person sees. */
  const problemsText = (problems: string[]) =>
    `E_APPROVAL_RULES_INVALID: ${problems.map((p) => p.replace(/^rules\[(\d+)\]/, (_m, i: string) => t('rules.row', { n: Number(i) + 1 }))).join('; ')}`;

  async function load(scope: string | null) {
    setStatus(null);
    try {
      setRows((await readApprovalRules(s.db, scope)).map(toRow));
    } catch (error) {
      // A stored list that fails the check (turns refuse to start until it is fixed) is shown row by row when its rows
      // are readable — a rule saved before a check was added — with each problem named by row, so the person can fix
      // or remove that row and save; otherwise the rows are empty and saving replaces the list.
      const stored = await readStoredApprovalRules(s.db, scope).catch(() => null);
      const readable =
        Array.isArray(stored) &&
        stored.every(
          (r) =>
            typeof r === 'object' &&
            r !== null &&
            DECISIONS.includes((r as { decision?: unknown }).decision as ApprovalDecision) &&
            typeof (r as { tool?: unknown }).tool === 'string',
        );
      if (readable) {
        setRows(
          (stored as Array<{ decision: ApprovalDecision; tool: string; path?: unknown }>).map((r) =>
            toRow({ decision: r.decision, tool: r.tool, ...(typeof r.path === 'string' ? { path: r.path } : {}) }),
          ),
        );
        const problems = checkRules(stored, 'rules');
        if (problems.length) return setStatus({ ok: false, text: problemsText(problems) });
      } else setRows([]);
      setStatus({ ok: false, text: `${codeOf(error) ?? 'E_APPROVAL_RULES_INVALID'}: ${messageOf(error)}` });
    }
  }
  createEffect(
    on(
      () => props.scope,
      (scope) => void load(scope),
    ),
  );

  const patch = (key: number, p: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...p } : r)));

  async function save() {
    setStatus(null);
    const rules = rows().map(toRule);
    const problems = checkRules(rules, 'rules');
    if (problems.length) return setStatus({ ok: false, text: problemsText(problems) });
    try {
      setRows((await saveApprovalRules(s.db, props.scope, rules)).map(toRow));
      setStatus({ ok: true, text: t('rules.saved') });
      s.settingsChanged();
    } catch (error) {
      setStatus({ ok: false, text: `${codeOf(error) ?? 'E_APPROVAL_RULES_INVALID'}: ${messageOf(error)}` });
    }
  }

  const scopeName = () => s.workspaces().find((w) => w.id === props.scope)?.name ?? '';
  return (
    <section class="rules-section" aria-labelledby={`${id}-title`} data-testid="approval-rules">
      <h3 id={`${id}-title`}>{t('rules.title')}</h3>
      <p class="field-hint">{t('rules.intro')}</p>
      <p class="rules-scope">{props.scope ? t('rules.forWorkspace', { name: scopeName() }) : t('rules.forGlobal')}</p>
      <Show when={rows().length > 0} fallback={<p class="field-hint">{t('rules.none')}</p>}>
        <ol class="rules-list">
          <For each={rows()}>
            {(row, i) => (
              <li class="rules-row" aria-label={t('rules.row', { n: i() + 1 })}>
                <select
                  aria-label={t('rules.decision')}
                  class={`rules-decision ${row.decision}`}
                  value={row.decision}
                  onChange={(e) => patch(row.key, { decision: e.currentTarget.value as ApprovalDecision })}
                >
                  <For each={DECISIONS}>{(d) => <option value={d}>{t(`rules.${d}`)}</option>}</For>
                </select>
                <input
                  aria-label={t('rules.tool')}
                  title={t('rules.toolHint')}
                  list={`${id}-tools`}
                  value={row.tool}
                  spellcheck={false}
                  autocomplete="off"
                  onInput={(e) => patch(row.key, { tool: e.currentTarget.value })}
                />
                <input
                  aria-label={t('rules.path')}
                  title={t('rules.pathHint')}
                  placeholder="src/**"
                  value={row.path}
                  spellcheck={false}
                  autocomplete="off"
                  onInput={(e) => patch(row.key, { path: e.currentTarget.value })}
                />
                <button
                  type="button"
                  class="button ghost small"
                  aria-label={t('rules.remove', { n: i() + 1 })}
                  onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                >
                  ×
                </button>
              </li>
            )}
          </For>
        </ol>
      </Show>
      <datalist id={`${id}-tools`}>
        <For each={SELECTORS}>{(v) => <option value={v} />}</For>
      </datalist>
      <p class="field-hint">
        {t('rules.toolHint')} {t('rules.pathHint')}
      </p>
      <div class="agent-row-inline">
        <button
          type="button"
          class="button small"
          onClick={() => setRows((all) => [...all, { key: nextKey++, decision: 'allow', tool: 'edit', path: '' }])}
        >
          {t('rules.add')}
        </button>
        <button type="button" class="button primary small" onClick={() => void save()}>
          {t('rules.save')}
        </button>
      </div>
      <Show when={status()}>
        {(st) => (
          <p
            class={st().ok ? 'field-success' : 'field-error'}
            role={st().ok ? 'status' : 'alert'}
            data-testid="rules-status"
          >
            {st().text}
          </p>
        )}
      </Show>
    </section>
  );
}
