// Icons of the Files panel (same 24-unit stroke style as icons.tsx).
export const ChevronIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon tree-chevron">
    <path d="M9 6l6 6-6 6" />
  </svg>
);
export const RefreshIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v5h-5" />
  </svg>
);
export const DownloadIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </svg>
);
