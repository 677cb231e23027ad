/*
 * Starts the home page's carousel and rotating texts, whose first frame is in
 * the HTML. Loaded by the layout's one script (PageScripts.astro) only on a
 * page that has them, after first paint: a component's own <script> would be a
 * second script file in the page (and one outside the layout lands after </html>).
 */
import { startCarousel } from './home-carousel.ts';
import { startRotation } from './rotating-text.ts';

export function startHomeMotion(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-carousel]')) startCarousel(el);
  for (const el of root.querySelectorAll<HTMLElement>('[data-rotating]')) startRotation(el);
}
