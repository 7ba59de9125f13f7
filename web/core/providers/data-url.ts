// Images travel as base64 data URLs (seed 000 §5). Anthropic wants the media type and data apart.
import { HarnessError } from '../contracts';

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/=\s]*)$/;

export function splitDataUrl(url: string): { mediaType: string; data: string } {
  const m = DATA_URL.exec(url);
  if (!m) {
    throw new HarnessError(
      'E_IMAGE_FORMAT',
      'An image is not a base64 data URL of PNG, JPEG, GIF or WebP. Attach the image again from a supported file.',
      { prefix: url.slice(0, 32) },
    );
  }
  return { mediaType: m[1]!, data: m[2]!.replace(/\s+/g, '') };
}
