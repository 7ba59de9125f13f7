// `view_image {path}` (seed 000 §5): a PNG, JPEG, GIF or WebP file of the workspace, recognised by its signature
// (not its extension), at most 8 MiB, returned as a base64 data URL in ToolResult.images. Approval 'free'.
import { sniffImage } from '../../contracts';
import { HarnessError } from '../../contracts';
import type { ToolDefinition, ToolResult } from '../../contracts';
import { IMAGE_MAX_BYTES } from '../../contracts';
import { guard, prepareRead, stringArg } from './tool-kit';

/** Base64 without Buffer (the browser has none), in chunks so String.fromCharCode never gets huge argument lists. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function viewImageTool(limits: { maxBytes?: number } = {}): ToolDefinition {
  const maxBytes = limits.maxBytes ?? IMAGE_MAX_BYTES;
  return {
    schema: {
      name: 'view_image',
      description: `Look at an image file of the workspace (PNG, JPEG, GIF or WebP, at most ${maxBytes} bytes). The image is attached for you to see.`,
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Workspace-relative path of the image.' } },
        required: ['path'],
        additionalProperties: false,
      },
    },
    approval: 'free',
    external: false,
    // Names the file for approval rules (`deny view_image on "private/"`); nothing is read here.
    prepare: (args, ctx) => prepareRead('view_image', 'View image', args, ctx.fs),
    async execute(args, ctx): Promise<ToolResult> {
      return guard(async () => {
        const path = stringArg('view_image', args, 'path', { nonEmpty: true })!;
        const stat = await ctx.fs.stat(path);
        if (!stat)
          throw new HarnessError(
            'E_FS_NOT_FOUND',
            `Nothing exists at ${path} in the workspace. Check the path with glob.`,
            { path },
          );
        if (stat.directory)
          throw new HarnessError('E_IMAGE_NOT_FILE', `${path} is a folder. Name an image file inside it.`, { path });
        const tooLarge = () =>
          new HarnessError(
            'E_IMAGE_TOO_LARGE',
            `${path} is ${stat.size} bytes; images are limited to ${maxBytes} bytes. Use a smaller or compressed image.`,
            { path, size: stat.size },
          );
        if (stat.size > maxBytes) throw tooLarge();
        let bytes: Uint8Array;
        try {
          bytes = await ctx.fs.readBytes(path, { maxBytes });
        } catch (error) {
          if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_LARGE') throw tooLarge();
          throw error;
        }
        const kind = sniffImage(bytes);
        if (!kind)
          throw new HarnessError(
            'E_IMAGE_UNSUPPORTED',
            `${path} is not a PNG, JPEG, GIF or WebP image (its first bytes match none of them). Convert it to one of these formats.`,
            { path },
          );
        return {
          output: `Image attached: ${path} (${kind}, ${bytes.length} bytes).`,
          images: [{ type: 'image_url', image_url: { url: `data:${kind};base64,${toBase64(bytes)}` } }],
        };
      });
    },
  };
}
