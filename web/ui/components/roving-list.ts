// One Tab stop for a list of links (the sidebar's workspaces and sessions): the roving tabindex of WAI-ARIA's
// composite widgets. Only one item is in the Tab order (the one last focused, else the open one, else the first);
// ArrowUp/ArrowDown, Home/End move between items; ArrowRight goes to the item's row action (its ⋯ button, also out
// of the Tab order) and ArrowLeft comes back. The items stay links, so they keep their role and their names.

/** Which item takes the list's one Tab stop: the remembered one if it is still listed, else the open one, else the first. */
export function tabStop(ids: readonly string[], remembered: string | null, open: string | null): string | null {
  if (remembered !== null && ids.includes(remembered)) return remembered;
  if (open !== null && ids.includes(open)) return open;
  return ids[0] ?? null;
}

/** The item `key` moves to from `at` among `count` items, or null when the key is not a move. */
export function moveTo(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return Math.min(at + 1, count - 1);
    case 'ArrowUp':
      return Math.max(at - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * A keydown handler for the element holding the list: `item` selects the items (in document order), `action` finds
 * an item's row action from the item. Keys with modifiers are left to the shortcuts.
 */
export function rovingKeys(item: string, action?: (el: HTMLElement) => HTMLElement | null) {
  return (e: KeyboardEvent & { currentTarget: HTMLElement }) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = e.target as HTMLElement;
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>(item)];
    const at = items.indexOf(target);
    if (at < 0) {
      // On a row action: ArrowLeft goes back to its item (its other keys are its own: ArrowDown opens its menu).
      const owner = items.find((el) => action?.(el) === target);
      if (owner && e.key === 'ArrowLeft') {
        e.preventDefault();
        owner.focus();
      }
      return;
    }
    if (e.key === 'ArrowRight') {
      const next = action?.(target);
      if (next) {
        e.preventDefault();
        next.focus();
      }
      return;
    }
    const next = moveTo(e.key, at, items.length);
    if (next === null) return;
    e.preventDefault();
    items[next]!.focus();
    items[next]!.scrollIntoView({ block: 'nearest' });
  };
}
