// Types for make-tiny-gguf.mjs (imported by tests and the bench).
export declare const TINY_CHAT_TEMPLATE: string;
export declare const STEERED_PATH: string;
export declare function tinyVocab(extraTokens?: number): { tokens: string[]; types: number[] };
export declare function makeTinyGguf(options?: {
  seed?: number;
  nEmbd?: number;
  nHead?: number;
  nFf?: number;
  nCtx?: number;
  architecture?: string;
  chatTemplate?: string | null;
  tensorType?: number;
  steer?: boolean;
  extraTokens?: number;
}): Uint8Array<ArrayBuffer>;
