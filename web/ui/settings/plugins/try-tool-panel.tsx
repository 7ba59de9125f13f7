// "Try a tool": runs one plugin tool in a chosen workspace through the same path the agent uses (pinned snapshot,
// PluginService.invoke, the workspace's WorkspaceFs), asking before each write unless writes are set to auto.
// Shows the output, or the stable code and message of a refusal — what a plugin author needs.
import { createMemo, createSignal, createUniqueId, For, Show } from 'solid-js';
import type { InstalledPlugin, InvokeResult, WriteApproval, WriteApprovalRequest } from '../../../core/page';
import type { WorkspaceRecord } from '../../../core/page';
import { compileSchema } from '../../../core/contracts';
import type { AppState } from '../../state/app-state';
import { messageOf } from '../../state/errors';
import { openFsFor, pluginServiceFor } from './plugin-runtime';
import { WriteApprovalDialog } from './write-approval-dialog';

type Outcome = { kind: 'result'; result: InvokeResult } | { kind: 'invalid'; text: string };

function exampleArgs(parameters: Record<string, unknown>): string {
  const props = (parameters.properties ?? {}) as Record<string, { type?: string }>;
  const required = Array.isArray(parameters.required) ? (parameters.required as string[]) : [];
  const example = Object.fromEntries(
    required.map((k) => [
      k,
      props[k]?.type === 'integer' || props[k]?.type === 'number' ? 1 : props[k]?.type === 'boolean' ? false : '',
    ]),
  );
  return JSON.stringify(example, null, 2);
}

export function TryToolPanel(props: { state: AppState; plugin: InstalledPlugin; enabledIn: WorkspaceRecord[] }) {
  const s = props.state;
  const t = s.t;
  const ids = { ws: createUniqueId(), tool: createUniqueId(), args: createUniqueId(), writes: createUniqueId() };
  const [workspaceId, setWorkspaceId] = createSignal(props.enabledIn[0]?.id ?? '');
  const [toolName, setToolName] = createSignal(props.plugin.tools[0]?.name ?? '');
  const tool = createMemo(() => props.plugin.tools.find((x) => x.name === toolName()));
  const [args, setArgs] = createSignal(exampleArgs(props.plugin.tools[0]?.parameters ?? {}));
  const [writes, setWrites] = createSignal<'ask' | 'auto'>('ask');
  const [running, setRunning] = createSignal(false);
  const [outcome, setOutcome] = createSignal<Outcome | null>(null);
  // Counts runs so a reader (a person or a test) can tell a new outcome from the previous one.
  const [runs, setRuns] = createSignal(0);
  const [asking, setAsking] = createSignal<{ request: WriteApprovalRequest; answer: (allow: boolean) => void } | null>(
    null,
  );
  const workspace = () => props.enabledIn.find((w) => w.id === workspaceId()) ?? props.enabledIn[0];

  async function run(event: SubmitEvent) {
    event.preventDefault();
    const w = workspace();
    const chosen = tool();
    if (!w || !chosen) return;
    setRuns((n) => n + 1);
    let parsed: unknown;
    try {
      parsed = JSON.parse(args());
    } catch (error) {
      return setOutcome({ kind: 'invalid', text: `E_RUN_BAD_ARGUMENTS: ${messageOf(error)}` });
    }
    const problems = compileSchema(chosen.parameters, 'arguments')(parsed);
    if (problems.length) return setOutcome({ kind: 'invalid', text: `E_TOOL_ARGS_INVALID: ${problems.join('; ')}` });
    setRunning(true);
    setOutcome(null);
    try {
      const service = pluginServiceFor(s.db);
      const fs = await openFsFor(w).catch(() => null);
      if (!fs && props.plugin.permissions.workspace !== 'none')
        return setOutcome({ kind: 'invalid', text: t('plugins.tryNoAccess') });
      // auto still asks for the files the write policy always asks about (.vscode/, .envrc…).
      const approval: WriteApproval = {
        mode: writes() === 'auto' ? 'auto' : 'ask',
        approve: (request, signal) =>
          new Promise<boolean>((resolve) => {
            const answer = (allow: boolean) => {
              setAsking(null);
              resolve(allow);
            };
            signal.addEventListener('abort', () => answer(false), { once: true });
            setAsking({ request, answer });
          }),
      };
      const snapshot = await service.registry.pin(w.id);
      const result = await service.invoke(snapshot, chosen.publicName, parsed, { fs, approval });
      setOutcome({ kind: 'result', result });
    } catch (error) {
      setOutcome({ kind: 'invalid', text: messageOf(error) });
    } finally {
      setRunning(false);
    }
  }

  return (
    <section class="try-tool" aria-label={t('plugins.try')}>
      <h4>{t('plugins.try')}</h4>
      <Show when={props.enabledIn.length > 0} fallback={<p class="field-hint">{t('plugins.tryNoWorkspace')}</p>}>
        <form class="try-form" onSubmit={run}>
          <div class="try-row">
            <div class="field">
              <label for={ids.ws}>{t('plugins.tryWorkspace')}</label>
              <select id={ids.ws} value={workspace()?.id} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
                <For each={props.enabledIn}>{(w) => <option value={w.id}>{w.name}</option>}</For>
              </select>
            </div>
            <div class="field">
              <label for={ids.tool}>{t('plugins.tryTool')}</label>
              <select
                id={ids.tool}
                value={toolName()}
                onChange={(e) => {
                  setToolName(e.currentTarget.value);
                  setArgs(exampleArgs(tool()?.parameters ?? {}));
                }}
              >
                <For each={props.plugin.tools}>{(x) => <option value={x.name}>{x.name}</option>}</For>
              </select>
            </div>
            <div class="field">
              <label for={ids.writes}>{t('plugins.tryWrites')}</label>
              <select
                id={ids.writes}
                value={writes()}
                onChange={(e) => setWrites(e.currentTarget.value as 'ask' | 'auto')}
              >
                <option value="ask">{t('plugins.tryWritesAsk')}</option>
                <option value="auto">{t('plugins.tryWritesAuto')}</option>
              </select>
            </div>
          </div>
          <div class="field">
            <label for={ids.args}>{t('plugins.tryArgs')}</label>
            <textarea
              id={ids.args}
              class="code-input"
              rows={4}
              spellcheck={false}
              value={args()}
              onInput={(e) => setArgs(e.currentTarget.value)}
            />
          </div>
          <div class="form-actions">
            <button type="submit" class="button primary" disabled={running()}>
              {running() ? t('plugins.tryRunning') : t('plugins.tryRun')}
            </button>
          </div>
        </form>
        <Show when={outcome()}>{(o) => <OutcomeView state={s} outcome={o()} run={runs()} />}</Show>
      </Show>
      <Show when={asking()}>{(a) => <WriteApprovalDialog t={t} request={a().request} onAnswer={a().answer} />}</Show>
    </section>
  );
}

function OutcomeView(props: { state: AppState; outcome: Outcome; run: number }) {
  const t = props.state.t;
  const failed = () =>
    props.outcome.kind === 'invalid' || (props.outcome.kind === 'result' && props.outcome.result.status !== 'done');
  const text = () => {
    const o = props.outcome;
    if (o.kind === 'invalid') return o.text;
    const r = o.result;
    if (r.status === 'done') return r.output;
    if (r.status === 'error') return `E_RUN_PLUGIN_ERROR: ${r.error}`;
    return `${r.error.code}: ${r.error.message}`;
  };
  const result = () => (props.outcome.kind === 'result' ? props.outcome.result : undefined);
  return (
    <div
      class="try-outcome"
      classList={{ failed: failed() }}
      role={failed() ? 'alert' : 'status'}
      data-testid="try-outcome"
      data-run={props.run}
    >
      <div class="try-outcome-head">
        <strong>{failed() ? t('plugins.tryFailed') : t('plugins.tryOutput')}</strong>
        <Show when={result()}>
          {(r) => (
            <span class="meta-text">
              {t('plugins.tryInfo', { calls: r().hostCalls, ms: Math.round(r().durationMs) })}
            </span>
          )}
        </Show>
      </div>
      <pre class="try-output">{text()}</pre>
      <Show when={failed() && result()?.sideEffects}>
        <p class="field-hint">{t('plugins.trySideEffects')}</p>
      </Show>
    </div>
  );
}
