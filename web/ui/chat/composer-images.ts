// Images pasted or dropped into the composer become image parts of the message, checked in the browser before
// sending with the core's own rules (seed 000 §5): PNG/JPEG/GIF/WebP recognised by their bytes (not the file's
// claimed type), at most MAX_IMAGE_BYTES each and MAX_IMAGES_PER_BATCH per message.
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_BATCH, sniffImage } from '../../core/contracts';
import { type ModelConfig } from '../../core/page';
import type { ComposerKey } from './composer-strings';

export interface Attached {
  id: number;
  name: string;
  /** `data:image/…;base64,…`, the form the core and every adapter take. */
  url: string;
}

export type ImageRefusal = { key: ComposerKey; params: Record<string, string | number> };

function base64(bytes: Uint8Array): string {
  let bin = '';
  // In slices: String.fromCharCode(...8 MiB) would overflow the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

let nextId = 1;

/** Reads one file into an attachment, or says why it is refused (`already` = images attached so far). */
export async function readImage(file: File, already: number): Promise<Attached | ImageRefusal> {
  const name = file.name || 'image';
  if (already >= MAX_IMAGES_PER_BATCH) return { key: 'c.imageCount', params: { limit: MAX_IMAGES_PER_BATCH, name } };
  if (file.size > MAX_IMAGE_BYTES)
    return { key: 'c.imageSize', params: { limit: MAX_IMAGE_BYTES / (1024 * 1024), name } };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sniffImage(bytes);
  if (!kind) return { key: 'c.imageType', params: { name } };
  return { id: nextId++, name, url: `data:${kind};base64,${base64(bytes)}` };
}

export const isRefusal = (r: Attached | ImageRefusal): r is ImageRefusal => 'key' in r;

/**
 * Whether the configured model takes image input. The model config has no field for it, so this goes by protocol:
 * DeepSeek's chat API is text-only; the other built-in wire APIs carry image parts (a text-only model behind them
 * answers with the provider's own error).
 */
export const takesImages = (config: Pick<ModelConfig, 'protocol'> | null | undefined): boolean =>
  config?.protocol !== 'deepseek';

/** Files of a paste or drop; each is judged by its bytes, so a non-image is refused with a sentence, not ignored. */
export const droppedFiles = (data: DataTransfer | null): File[] => (data ? [...data.files] : []);
