// The images attached to the draft, as thumbnails above the message box, each with its remove button.
import { For } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { Attached } from './composer-images';

export function AttachedImages(props: { images: Attached[]; onRemove: (id: number) => void; ct: ChatTranslate }) {
  const ct = props.ct;
  return (
    <ul class="composer-images" aria-label={ct('c.attach')}>
      <For each={props.images}>
        {(img, i) => (
          <li class="composer-image">
            <img src={img.url} alt={ct('c.imageAlt', { n: i() + 1 })} title={img.name} />
            <button
              type="button"
              class="composer-image-remove"
              aria-label={ct('c.removeImage')}
              title={img.name}
              onClick={() => props.onRemove(img.id)}
            >
              <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </li>
        )}
      </For>
    </ul>
  );
}
