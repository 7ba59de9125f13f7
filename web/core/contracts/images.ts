// Image checks for tool results (seed 000 §5): PNG/JPEG/GIF/WebP recognised by signature, <= 8 MiB each,
// <= 8 per batch, base64 data URLs only. Runs after `after_tool`, so a hook cannot smuggle in other images.
import type { ImagePart } from './messages';

export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_IMAGES_PER_BATCH = 8;

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]*={0,2})$/;

export type ImageKind = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const b = (i: number) => bytes[i] ?? -1;
  if (
    b(0) === 0x89 &&
    b(1) === 0x50 &&
    b(2) === 0x4e &&
    b(3) === 0x47 &&
    b(4) === 0x0d &&
    b(5) === 0x0a &&
    b(6) === 0x1a &&
    b(7) === 0x0a
  )
    return 'image/png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'image/jpeg';
  if (
    b(0) === 0x47 &&
    b(1) === 0x49 &&
    b(2) === 0x46 &&
    b(3) === 0x38 &&
    (b(4) === 0x37 || b(4) === 0x39) &&
    b(5) === 0x61
  )
    return 'image/gif';
  if (
    b(0) === 0x52 &&
    b(1) === 0x49 &&
    b(2) === 0x46 &&
    b(3) === 0x46 &&
    b(8) === 0x57 &&
    b(9) === 0x45 &&
    b(10) === 0x42 &&
    b(11) === 0x50
  )
    return 'image/webp';
  return null;
}

/** Decoded size of a base64 payload without decoding it. */
function base64Size(payload: string): number {
  const pad = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return (payload.length / 4) * 3 - pad;
}

function decodeHead(payload: string, bytes: number): Uint8Array {
  const chunk = payload.slice(0, Math.ceil(bytes / 3) * 4);
  const bin = atob(chunk);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Why one image is refused, or null when it is acceptable. */
export function checkImage(image: unknown): string | null {
  if (typeof image !== 'object' || image === null)
    return 'an image must be {"type":"image_url","image_url":{"url":"data:..."}}';
  const part = image as Partial<ImagePart>;
  const url = part.type === 'image_url' ? part.image_url?.url : undefined;
  if (typeof url !== 'string') return 'an image must be {"type":"image_url","image_url":{"url":"data:..."}}';
  const m = DATA_URL.exec(url);
  if (!m) return 'only base64 data URLs of PNG, JPEG, GIF or WebP images are accepted';
  const payload = m[2]!;
  if (payload.length % 4 !== 0) return 'the base64 payload is malformed';
  const size = base64Size(payload);
  if (size > MAX_IMAGE_BYTES) return `the image has ${size} bytes, more than the ${MAX_IMAGE_BYTES}-byte limit`;
  let kind: ImageKind | null;
  try {
    kind = sniffImage(decodeHead(payload, 16));
  } catch {
    return 'the base64 payload is malformed';
  }
  if (!kind) return 'the bytes are not a PNG, JPEG, GIF or WebP image';
  if (kind !== m[1]) return `the data URL says ${m[1]} but the bytes are ${kind}`;
  return null;
}

export interface ImageVerdict {
  accepted: ImagePart[];
  /** Sentences appended to the tool output so the model knows what was dropped. */
  notes: string[];
}

/** Checks one call's images given how many the batch already accepted. */
export function checkToolImages(images: readonly unknown[] | undefined, acceptedSoFar: number): ImageVerdict {
  const accepted: ImagePart[] = [];
  const notes: string[] = [];
  (images ?? []).forEach((image, i) => {
    const problem = checkImage(image);
    if (problem) {
      notes.push(`Image ${i + 1} was refused: ${problem}.`);
    } else if (acceptedSoFar + accepted.length >= MAX_IMAGES_PER_BATCH) {
      notes.push(`Image ${i + 1} was dropped: at most ${MAX_IMAGES_PER_BATCH} images per tool batch.`);
    } else {
      accepted.push(image as ImagePart);
    }
  });
  return { accepted, notes };
}
