// What Send makes of the draft: the typed text, the files its @ mentions attach (bounded, see composer-mentions.ts)
// and the attached images, as one message; and the notes that tell the person what was cut or left out.
import type { ContentPart, WorkspaceFs } from '../../core/contracts';
import type { ChatTranslate } from './chat-i18n';
import type { Attached } from './composer-images';
import { attachMentions, MENTION_LIMITS, type AttachNote } from './composer-mentions';
import type { ComposerKey } from './composer-strings';

const NOTE: Record<AttachNote['reason'], ComposerKey> = {
  missing: 'c.mentionMissing',
  'not-text': 'c.noteNotText',
  'too-large': 'c.noteTooLarge',
  'cut-file': 'c.noteCutFile',
  'cut-total': 'c.noteCutTotal',
  'too-many': 'c.noteTooMany',
};
const KiB = 1024;

/** The message content for `text` with its mentions and `pictures`, and the notes to show (translated). */
export async function composeMessage(
  fs: WorkspaceFs,
  text: string,
  pictures: readonly Attached[],
  ct: ChatTranslate,
): Promise<{ content: string | ContentPart[]; notes: string[] }> {
  const attached = await attachMentions(fs, text);
  const content: string | ContentPart[] =
    attached.parts.length || pictures.length
      ? [
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...attached.parts,
          ...pictures.map((p) => ({ type: 'image_url' as const, image_url: { url: p.url } })),
        ]
      : text;
  const notes = attached.notes.map((n) =>
    ct(NOTE[n.reason], {
      path: n.path,
      file: MENTION_LIMITS.perFileBytes / KiB,
      total: MENTION_LIMITS.totalBytes / KiB,
      read: MENTION_LIMITS.maxReadBytes / (KiB * KiB),
      count: MENTION_LIMITS.maxFiles,
    }),
  );
  return { content, notes };
}

/** The typed text of a user message (its first text part: later parts are attached files). */
export function typedText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.find((p) => p.type === 'text')?.text ?? '';
}
