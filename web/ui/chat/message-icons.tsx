// Small line icons for message and code actions (inline SVG: no icon font, nothing for the CSP to refuse). Each is
// decorative: the button around it carries the accessible name.
import type { JSX } from 'solid-js';

const Svg = (props: { children: JSX.Element }) => (
  <svg
    class="icon"
    viewBox="0 0 16 16"
    width="14"
    height="14"
    fill="none"
    stroke="currentColor"
    stroke-width="1.5"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
  >
    {props.children}
  </svg>
);

export const CopyIcon = () => (
  <Svg>
    <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
    <path d="M10.5 5.5V3.5a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h2" />
  </Svg>
);

export const CheckIcon = () => (
  <Svg>
    <path d="M3 8.5l3 3 7-7" />
  </Svg>
);

export const EditIcon = () => (
  <Svg>
    <path d="M11 2.5l2.5 2.5L6 12.5 3 13l.5-3z" />
  </Svg>
);

export const RegenerateIcon = () => (
  <Svg>
    <path d="M13 8a5 5 0 1 1-1.5-3.5" />
    <path d="M13 2.5v3h-3" />
  </Svg>
);

export const ForkIcon = () => (
  <Svg>
    <circle cx="4.5" cy="3.5" r="1.5" />
    <circle cx="4.5" cy="12.5" r="1.5" />
    <circle cx="11.5" cy="5.5" r="1.5" />
    <path d="M4.5 5v6M11.5 7c0 2.5-3 2.5-6.5 4" />
  </Svg>
);
