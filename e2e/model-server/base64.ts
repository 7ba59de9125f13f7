/** UTF-8 text to base64 without Node's Buffer, so the encoders also run in a browser test. */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
