// Line icons drawn with currentColor (stroke set in CSS), so they follow the theme.
export const FolderIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M3 7.5A1.5 1.5 0 0 1 4.5 6H9l2 2h8.5A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" />
  </svg>
);
export const LockIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <rect x="5" y="11" width="14" height="9" rx="1.5" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </svg>
);
export const FileIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M7 3h7l5 5v12a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z" />
    <path d="M14 3v5h5" />
  </svg>
);
export const PlusIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M12 5v14M5 12h14" />
  </svg>
);
export const GearIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
  </svg>
);
export const ChatIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M4 5h16v11H9l-5 4z" />
  </svg>
);
export const UpIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M12 19V5M6 11l6-6 6 6" />
  </svg>
);
export const KeyIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <circle cx="8" cy="15" r="4" />
    <path d="M11 12l9-9M17 6l3 3" />
  </svg>
);
