// One Content-Security-Policy for every response the server sends (documents and workers alike), so a plugin
// Worker is held to the same rules as the page. WebAssembly needs 'wasm-unsafe-eval'; nothing needs 'unsafe-eval'.
// connect-src stays open to http(s) because the person chooses their model endpoint (cloud, LAN or loopback).
export function contentSecurityPolicy({ dev }: { dev: boolean }): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    // Vite's dev server injects CSS through <style> tags; the production build ships CSS files.
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    dev ? "connect-src 'self' https: http: ws: wss:" : "connect-src 'self' https: http:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders({ dev }: { dev: boolean }): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy({ dev }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
