// Text from a plugin's manifest as Settings → Plugins shows it. The validator refuses bidi, zero-width and control
// characters in new packages, but plugins installed before that rule keep their stored names: every name and
// description is shown with such characters as visible escapes (`\u202e`), never acted on by the bidi algorithm.
import { escapeControls } from '../../../core/contracts';

/** A one-line label: name, tool name, id. Newlines and tabs are escaped too. */
export const shownName = (text: string): string => escapeControls(text, { keepLayout: false });

/** A description: newlines and tabs keep their layout, everything else that hides or reorders text is escaped. */
export const shownText = (text: string): string => escapeControls(text);

/** A SHA-256 shortened for reading side by side: 12 leading and 8 trailing hex digits (80 bits). */
export const shortHash = (hex: string): string => (hex.length > 24 ? `${hex.slice(0, 12)}…${hex.slice(-8)}` : hex);
