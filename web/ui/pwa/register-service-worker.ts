// Service worker registration (workbox-window through vite-plugin-pwa). registerType is 'prompt': a new version
// waits until the person chooses to reload, so an agent run in progress is never interrupted by an update.
import { registerSW } from 'virtual:pwa-register';

export interface ServiceWorkerEvents {
  onNeedRefresh(): void;
  onOfflineReady(): void;
  onError(error: unknown): void;
}

/** Returns the function that activates the waiting worker and reloads the page. */
export function registerServiceWorker(events: ServiceWorkerEvents): () => Promise<void> {
  if (!('serviceWorker' in navigator)) return async () => location.reload();
  const update = registerSW({
    immediate: true,
    onNeedRefresh: events.onNeedRefresh,
    onOfflineReady: events.onOfflineReady,
    onRegisterError: events.onError,
    onRegisteredSW(_url, registration) {
      // Look for a new version every hour while the app stays open (installed apps can stay open for days).
      if (registration) setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
    },
  });
  return () => update(true);
}
