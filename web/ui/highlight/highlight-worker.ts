// The highlight Worker: tokenises off the main thread (Shiki's JavaScript engine needs seconds for 100 KB of
// TypeScript), one request at a time in arrival order. Messages are a tiny protocol: {id, code, lang} in,
// {id, result} out, result null when the grammar failed.
import { tokenise, type Tokenised } from './highlight-core';

export interface HighlightRequest {
  id: number;
  code: string;
  lang: string;
}
export interface HighlightReply {
  id: number;
  result: Tokenised | null;
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<HighlightRequest>) => void) | null;
  postMessage(reply: HighlightReply): void;
};
scope.onmessage = (event) => {
  const { id, code, lang } = event.data;
  void tokenise(code, lang).then((result) => scope.postMessage({ id, result }));
};
