import type { RotationSettings } from '../components/react/RotatingText.tsx';

const FADE_MS = 150;

/**
 * Starts a server-rendered rotating text (src/components/react/RotatingText.tsx): the
 * next item every `intervalMs` (a 150 ms fade on wide screens where asked),
 * with a Pause/Resume control after it when it has a `controlLabel`; nothing
 * moves when reduced motion is preferred.
 */
export function startRotation(el: HTMLElement): void {
  const { items, intervalMs, fade, controlLabel, words } = JSON.parse(
    el.dataset.rotating ?? '{}',
  ) as RotationSettings;
  if (!items || items.length < 2) return;
  let index = 0;
  let timer: number | undefined;
  let fadeTimer: number | undefined;
  const show = (i: number) => {
    index = i;
    el.textContent = items[i] ?? items[0]!;
    el.dataset.rotatingIndex = String(i);
  };
  const tick = () => {
    const next = (index + 1) % items.length;
    const wide = window.matchMedia?.('(min-width: 768px)').matches ?? true;
    if (!fade || !wide) return show(next);
    el.classList.add('is-hidden');
    fadeTimer = window.setTimeout(() => {
      show(next);
      el.classList.remove('is-hidden');
    }, FADE_MS);
  };
  const setRunning = (on: boolean) => {
    window.clearInterval(timer);
    window.clearTimeout(fadeTimer);
    el.classList.remove('is-hidden');
    timer = on ? window.setInterval(tick, intervalMs) : undefined;
    if (button) {
      button.firstChild!.textContent = on ? words.pause : words.resume;
    }
  };

  let button: HTMLButtonElement | null = null;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  if (controlLabel) {
    button = document.createElement('button');
    button.type = 'button';
    button.className = 'rotating-pause';
    const name = document.createElement('span');
    name.className = 'visually-hidden';
    name.textContent = ` ${controlLabel}`;
    button.append(document.createTextNode(''), name);
    button.addEventListener('click', () => setRunning(timer === undefined));
    el.after(button);
  }
  setRunning(!reduced);
}
