import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';
import { VitePWA } from 'vite-plugin-pwa';
import { securityHeaders } from './scripts/security-headers.ts';

// The app shell: web/ is the Vite root, public/ holds icons, the build lands in dist/app.
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: true,
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', headers: securityHeaders({ dev: true }) },
  preview: { host: '127.0.0.1', headers: securityHeaders({ dev: false }) },
  plugins: [
    solid(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      strategies: 'generateSW',
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,wasm}'],
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // llama.cpp's wasm (10 MB, the in-browser model of issue 21) is not precached for everyone: it is cached on
        // its first use, so a person who runs a model in the tab keeps working offline afterwards.
        globIgnores: ['**/wllama-*.wasm'],
        runtimeCaching: [
          {
            urlPattern: /\/assets\/wllama-[\w-]+\.wasm$/,
            handler: 'CacheFirst',
            options: { cacheName: 'i-wllama-wasm' },
          },
        ],
      },
      manifest: {
        name: 'i — agent harness',
        short_name: 'i',
        description: 'An AI coding agent that runs in your browser, sandboxed to the folder you grant.',
        start_url: './',
        scope: './',
        display: 'standalone',
        background_color: '#0f1115',
        theme_color: '#0f1115',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
});
