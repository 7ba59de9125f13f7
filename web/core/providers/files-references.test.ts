// Built-in Files: an uploaded image is referenced by file_id in each vendor's documented block, and the upload is
// the vendor's documented multipart request (OpenAI purpose/expires_after; Anthropic's beta header).
import { describe, expect, it } from 'vitest';
import { prepareAnthropic } from './anthropic-messages';
import { anthropicFiles, ANTHROPIC_FILES_BETA } from './files-anthropic';
import { openaiFiles } from './files-openai';
import { prepareResponses } from './openai-responses';
import type { PrepareInput } from '../contracts/messages';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const input = (fileId?: string): PrepareInput => ({
  version: 1,
  protocol: 'x',
  base_url: 'https://api.example.test',
  model: 'm',
  max_tokens: 100,
  compact: false,
  tools: [],
  plugin_tools: [],
  use_max_tokens: false,
  extra_body: {},
  stream: false,
  history: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: PNG }, ...(fileId ? { file_id: fileId } : {}) },
      ],
    },
  ],
});
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

describe('Files references in model requests', () => {
  it('Responses sends input_image with file_id instead of the data URL when the image was uploaded', () => {
    const body = prepareResponses(input('file-abc')).body as { input: Array<{ content: unknown[] }> };
    expect(body.input[0]!.content[1]).toEqual({ type: 'input_image', file_id: 'file-abc' });
    expect(JSON.stringify(body)).not.toContain('base64');
    expect((prepareResponses(input()).body as { input: Array<{ content: unknown[] }> }).input[0]!.content[1]).toEqual({
      type: 'input_image',
      image_url: PNG,
    });
  });

  it('Anthropic sends an image block with source {type: file, file_id}', () => {
    const body = prepareAnthropic(input('file_011')).body as { messages: Array<{ content: unknown[] }> };
    expect(body.messages[0]!.content[1]).toEqual({ type: 'image', source: { type: 'file', file_id: 'file_011' } });
  });

  it('OpenAI upload is multipart with purpose vision, the expiry fields, and the file part', () => {
    const op = openaiFiles.upload({
      baseUrl: 'https://api.example.test/v1',
      bytes: new Uint8Array([1, 2, 3]),
      mediaType: 'image/png',
      filename: 'a.png',
      expiresAfterSeconds: 3600,
      boundary: 'b0',
    });
    expect(op).toMatchObject({
      method: 'POST',
      url: 'https://api.example.test/v1/files',
      content_type: 'multipart/form-data; boundary=b0',
      auth: { header: 'authorization', prefix: 'Bearer ' },
    });
    const t = text(op.body);
    expect(t).toContain('name="purpose"\r\n\r\nvision\r\n');
    expect(t).toContain('name="expires_after[anchor]"\r\n\r\ncreated_at\r\n');
    expect(t).toContain('name="expires_after[seconds]"\r\n\r\n3600\r\n');
    expect(t).toContain(
      'name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0001\u0002\u0003\r\n--b0--\r\n',
    );
    expect(openaiFiles.readFile({ id: 'file-1', bytes: 3, created_at: 10, expires_at: 20 })).toEqual({
      file_id: 'file-1',
      bytes: 3,
      created_at: 10_000,
      expires_at: 20_000,
      filename: null,
    });
  });

  it('Anthropic upload and management carry the files beta header and x-api-key', () => {
    const op = anthropicFiles.upload({
      baseUrl: 'https://api.example.test',
      bytes: new Uint8Array([1]),
      mediaType: 'image/png',
      filename: 'a.png',
      expiresAfterSeconds: null,
      boundary: 'b1',
    });
    expect(op).toMatchObject({
      url: 'https://api.example.test/v1/files',
      headers: { 'anthropic-beta': ANTHROPIC_FILES_BETA },
      auth: { header: 'x-api-key', prefix: '' },
    });
    expect(anthropicFiles.remove('https://api.example.test', 'file_1')).toMatchObject({
      method: 'DELETE',
      url: 'https://api.example.test/v1/files/file_1',
      headers: { 'anthropic-beta': ANTHROPIC_FILES_BETA },
    });
    expect(anthropicFiles.readFile({ id: 'file_1', size_bytes: 5, created_at: '2025-01-01T00:00:00Z' })).toMatchObject({
      file_id: 'file_1',
      bytes: 5,
      created_at: Date.parse('2025-01-01T00:00:00Z'),
      expires_at: null,
    });
  });
});
