// The table frame Settings → Usage repeats: a horizontally scrollable box, column headers (numbers right-aligned),
// the rows the caller gives.
import { For, type JSX } from 'solid-js';

export interface UsageColumn {
  label: JSX.Element;
  num?: boolean;
}

export function UsageTable(props: { columns: UsageColumn[]; label?: string; class?: string; children: JSX.Element }) {
  return (
    <div class="usage-scroll">
      <table class={props.class ? `usage-table ${props.class}` : 'usage-table'} aria-label={props.label}>
        <thead>
          <tr>
            <For each={props.columns}>
              {(c) => (
                <th scope="col" class={c.num ? 'num' : undefined}>
                  {c.label}
                </th>
              )}
            </For>
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
