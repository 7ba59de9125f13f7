// The sidebar's sessions: a search over titles and conversation text, the list grouped by day with relative times,
// and rename in place (double-click a session). Conversation text is read from the session store on the first
// search and kept per session until that session changes (its updatedAt); the store is loaded on demand so the
// first screen does not carry it.
import { createMemo, createResource, createSignal, Index, onCleanup, Show } from 'solid-js';
import type { SessionRecord } from '../../core/page';
import { selectSession } from '../state/app-actions';
import type { AppState } from '../state/app-state';
import { ConfirmDialog } from './dialog';
import { InlineRename } from './inline-rename';
import { MoreIcon, SearchIcon } from './layout-icons';
import { MenuButton } from './menu';
import { rovingKeys, tabStop } from './roving-list';
import {
  conversationText,
  groupSessions,
  matchSession,
  relativeTime,
  type SessionGroup,
  type SessionMatch,
} from './session-groups';

// Through the agent Worker, where every session write passes the one-writer check (a session another tab is
// writing cannot be renamed or deleted from here); loaded on demand, off the first screen.
const store = async (s: AppState, workspaceId: string) =>
  (await import('../../core/agent-worker')).remoteSessionStore(s.db, workspaceId);

interface Row {
  session: SessionRecord;
  updatedAt: number;
  match?: SessionMatch;
}

/** Conversation text per session, for search; dropped when the workspace changes. */
function createTextCache(s: AppState) {
  let workspace = '';
  let cache = new Map<string, { updatedAt: number; text: string }>();
  return async (session: SessionRecord): Promise<string> => {
    if (session.workspaceId !== workspace) [workspace, cache] = [session.workspaceId, new Map()];
    const hit = cache.get(session.id);
    if (hit && hit.updatedAt === session.updatedAt) return hit.text;
    let text = '';
    try {
      text = conversationText((await (await store(s, session.workspaceId)).load(session.id)).messages);
    } catch {
      // A damaged session is still found by its title; opening it shows the damage and the way to recover.
    }
    cache.set(session.id, { updatedAt: session.updatedAt, text });
    return text;
  };
}

export function SessionList(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const [query, setQuery] = createSignal('');
  const [debounced, setDebounced] = createSignal('');
  const [renaming, setRenaming] = createSignal<string | null>(null);
  const [deleting, setDeleting] = createSignal<SessionRecord | null>(null);
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 60_000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => (clearInterval(tick), clearTimeout(timer)));
  const textOf = createTextCache(s);
  const locale = () => (s.locale() === 'zh' ? 'zh-CN' : 'en-US');

  const [found] = createResource(
    () => ({ q: debounced().trim(), list: s.sessions() }),
    async ({ q, list }): Promise<Row[] | null> => {
      if (!q) return null;
      const rows: Row[] = [];
      for (const session of list) {
        // The title first: a session found by its title needs no read of its conversation.
        const byTitle = matchSession(q, session.title, '');
        const match = byTitle ?? matchSession(q, session.title, await textOf(session));
        if (match) rows.push({ session, updatedAt: session.updatedAt, match });
      }
      return rows;
    },
  );
  const rows = createMemo<Row[]>(() =>
    debounced().trim()
      ? (found.latest ?? [])
      : s.sessions().map((session) => ({ session, updatedAt: session.updatedAt })),
  );
  const groups = createMemo(() => groupSessions(rows(), now()));
  // The list is one Tab stop (roving-list.ts): the session last focused in it, else the open one, else the first.
  const [remembered, setRemembered] = createSignal<string | null>(null);
  const stop = createMemo(() =>
    tabStop(
      groups().flatMap((g) => g.items.map((r) => r.session.id)),
      remembered(),
      s.session(),
    ),
  );
  let scroller!: HTMLDivElement;
  const rowAction = (link: HTMLElement) => link.closest('li')?.querySelector<HTMLElement>('.session-row-menu') ?? null;
  const groupLabel = (g: SessionGroup<Row>) =>
    g.kind === 'today'
      ? t('sessions.today')
      : g.kind === 'yesterday'
        ? t('sessions.yesterday')
        : g.kind === 'week'
          ? t('sessions.previous7')
          : g.month!.toLocaleDateString(locale(), { month: 'long', year: 'numeric' });

  async function rename(id: string, title: string) {
    await (await store(s, s.selected()!.id)).rename(id, title);
    await s.refreshSessions();
  }
  async function remove(session: SessionRecord) {
    await (await store(s, session.workspaceId)).delete(session.id);
    await s.refreshSessions();
  }

  return (
    <>
      {/* Nothing to search in an empty workspace. */}
      <Show when={s.sessions().length > 0 || query()}>
        <div class="session-search">
          <SearchIcon />
          <input
            type="search"
            data-session-search
            aria-label={t('sessions.search')}
            placeholder={t('sessions.searchPlaceholder')}
            value={query()}
            onInput={(e) => {
              setQuery(e.currentTarget.value);
              clearTimeout(timer);
              timer = setTimeout(() => setDebounced(query()), 150);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && !e.altKey) {
                // From the search to what it found, as in a combobox.
                const first = scroller.querySelector<HTMLElement>('a.session-item');
                if (first) {
                  e.preventDefault();
                  first.focus();
                }
              } else if (e.key === 'Escape' && query()) {
                e.preventDefault();
                e.stopPropagation();
                setQuery('');
                setDebounced('');
              }
            }}
          />
        </div>
      </Show>
      <Show when={debounced().trim() && found.loading && !found.latest}>
        <p class="empty-hint">{t('sessions.searching')}</p>
      </Show>
      <Show when={debounced().trim() && found.latest && rows().length === 0}>
        <p class="empty-hint" role="status">
          {t('sessions.noMatch', { query: debounced().trim() })}
        </p>
      </Show>
      <Show when={!debounced().trim() && s.sessions().length === 0}>
        <p class="empty-hint">{t('sidebar.noSessions')}</p>
      </Show>
      {/* By position, not by object: a refreshed list (new records, same order) keeps its rows' DOM, so a
          double-click that selects on its first click still lands on the same row. The groups scroll on their own,
          under the search and above the sidebar's footer. */}
      <div class="session-scroll" ref={(el) => (scroller = el)} onKeyDown={rovingKeys('a.session-item', rowAction)}>
        <Index each={groups()}>
          {(group) => (
            <div class="session-group">
              <h3 class="session-group-title">{groupLabel(group())}</h3>
              <ul class="nav-list" role="list">
                <Index each={group().items}>
                  {(row) => (
                    <li class="session-row">
                      <Show
                        when={renaming() === row().session.id}
                        fallback={
                          <a
                            href={`#w=${row().session.workspaceId}&s=${row().session.id}`}
                            class="nav-item session-item"
                            data-session={row().session.id}
                            aria-current={s.session() === row().session.id ? 'page' : undefined}
                            tabIndex={stop() === row().session.id ? 0 : -1}
                            onFocus={() => setRemembered(row().session.id)}
                            onKeyDown={(e) => {
                              if (e.key !== 'F2') return;
                              e.preventDefault();
                              setRenaming(row().session.id);
                            }}
                            onClick={(e) => {
                              e.preventDefault();
                              selectSession(row().session.id);
                            }}
                            onDblClick={(e) => {
                              e.preventDefault();
                              setRenaming(row().session.id);
                            }}
                          >
                            <span class="session-item-text">
                              <span class="nav-label">{row().session.title}</span>
                              <Show when={row().match?.snippet}>
                                {(snippet) => (
                                  <span class="session-snippet" title={t('sessions.matchInContent')}>
                                    {snippet()}
                                  </span>
                                )}
                              </Show>
                            </span>
                            {/* Out of the link's name: a session is named by its title alone (hover shows the date). */}
                            <span
                              class="session-time"
                              aria-hidden="true"
                              title={new Date(row().session.updatedAt).toLocaleString(locale())}
                            >
                              {relativeTime(row().session.updatedAt, now(), locale())}
                            </span>
                          </a>
                        }
                      >
                        <InlineRename
                          class="nav-item"
                          value={row().session.title}
                          label={t('sessions.title')}
                          hint={t('sessions.renameHint')}
                          maxLength={500}
                          onSave={(title) => rename(row().session.id, title)}
                          onDone={() => {
                            // Back to the row's link, the list's Tab stop, when the field had the focus.
                            const id = row().session.id;
                            const hadFocus = scroller.contains(document.activeElement);
                            setRenaming(null);
                            if (hadFocus) scroller.querySelector<HTMLElement>(`a[data-session="${id}"]`)?.focus();
                          }}
                        />
                      </Show>
                      <Show when={renaming() !== row().session.id}>
                        {/* The open session's delete is in its own menu in the top bar, where a running turn disables it. */}
                        <MenuButton
                          label={t('sessions.rowMenu', { title: row().session.title })}
                          class="icon-button small session-row-menu"
                          tabIndex={-1}
                          align="start"
                          items={[
                            { label: t('sessions.rename'), onSelect: () => setRenaming(row().session.id) },
                            ...(s.session() === row().session.id
                              ? []
                              : [
                                  {
                                    label: t('sessions.delete'),
                                    danger: true,
                                    onSelect: () => setDeleting(row().session),
                                  },
                                ]),
                          ]}
                        >
                          <MoreIcon />
                        </MenuButton>
                      </Show>
                    </li>
                  )}
                </Index>
              </ul>
            </div>
          )}
        </Index>
      </div>
      <Show when={deleting()}>
        {(session) => (
          <ConfirmDialog
            title={t('sessions.delete')}
            body={t('sessions.deleteConfirm', { title: session().title })}
            confirmLabel={t('sessions.delete')}
            cancelLabel={t('common.cancel')}
            danger
            onConfirm={() => void s.attempt(() => remove(session()))}
            onClose={() => setDeleting(null)}
          />
        )}
      </Show>
    </>
  );
}
