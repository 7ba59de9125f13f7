import type { Translate } from '../i18n/i18n';

export function Unsupported(props: { t: Translate; features: string[] }) {
  return (
    <main class="center-screen">
      <section class="card" role="alert" aria-labelledby="unsupported-title">
        <img src="/logo.svg" alt="" width="48" height="48" />
        <h1 id="unsupported-title">{props.t('unsupported.title')}</h1>
        <p>{props.t('unsupported.body', { features: props.features.join(', ') })}</p>
      </section>
    </main>
  );
}
