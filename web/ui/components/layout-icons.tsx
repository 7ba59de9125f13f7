// Line icons of the layout controls (same drawing rules as icons.tsx: currentColor, stroke set in CSS).
export const SidebarIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <path d="M9.5 4.5v15" />
  </svg>
);
export const PanelRightIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <path d="M14.5 4.5v15" />
  </svg>
);
export const ChevronDownIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M7 10l5 5 5-5" />
  </svg>
);
export const MoreIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <circle cx="6" cy="12" r="1.2" />
    <circle cx="12" cy="12" r="1.2" />
    <circle cx="18" cy="12" r="1.2" />
  </svg>
);
export const SearchIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <circle cx="11" cy="11" r="6" />
    <path d="M20 20l-4.5-4.5" />
  </svg>
);
export const NewChatIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M12 5H6a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2v-6" />
    <path d="M17.5 3.5l3 3L13 14h-3v-3z" />
  </svg>
);
export const CloseIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
export const DownloadIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </svg>
);
export const OfflineIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M3 3l18 18M8.5 16.5a5 5 0 0 1 7 0M5 12.5a10 10 0 0 1 4.2-2.4M19 12.5a10 10 0 0 0-3-2M2 8.8a15 15 0 0 1 4.4-2.6M22 8.8A15 15 0 0 0 11 5" />
    <circle cx="12" cy="20" r="0.8" />
  </svg>
);
