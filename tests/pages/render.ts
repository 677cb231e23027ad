import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import type { SSRManifest } from 'astro';
import { Window } from 'happy-dom';
import { vi } from 'vitest';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { localizedPath } from '../../src/lib/lang-paths.ts';
import type { Lang } from '../../src/lib/lang.ts';

/*
 * The real page components rendered with Astro's container API at a faked moment (docs/decisions/157-election-calendar.md):
 * `at(calendar, moment)` makes the moment both the build's (ELECTION_BUILD_NOW, ELECTION_BUILD_CALENDAR: the
 * prerendered pages) and the clock's (a fake Date: the pages rendered on demand), so every component sees the stage
 * a build or a request at that moment would. `render()` gives the HTML as a document, which is what a visitor with
 * JavaScript off reads.
 */

const dir = mkdtempSync(join(tmpdir(), 'election-pages-'));
const files = new Map<string, string>();

/** The calendar's file for ELECTION_BUILD_CALENDAR (one per distinct calendar). */
function fileOf(calendar: ElectionCalendar): string {
  const text = JSON.stringify(calendar);
  let path = files.get(text);
  if (!path) {
    path = join(dir, `calendar-${files.size}.json`);
    writeFileSync(path, text);
    files.set(text, path);
  }
  return path;
}

/** From now on, pages render at `moment` with `calendar`. */
export function at(calendar: ElectionCalendar, moment: Date): void {
  process.env.ELECTION_BUILD_CALENDAR = fileOf(calendar);
  process.env.ELECTION_BUILD_NOW = moment.toISOString();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(moment);
}

export function restore(): void {
  delete process.env.ELECTION_BUILD_CALENDAR;
  delete process.env.ELECTION_BUILD_NOW;
  vi.useRealTimers();
}

let container: Promise<AstroContainer> | null = null;

async function create(): Promise<AstroContainer> {
  const renderers = await loadRenderers([getContainerRenderer()]);
  return AstroContainer.create({
    renderers,
    // The site's client directives, client:interaction among them; their scripts are not what these tests read.
    manifest: {
      clientDirectives: new Map(
        ['idle', 'load', 'media', 'only', 'visible', 'interaction'].map((name) => [name, '/* directive */']),
      ),
    } as Partial<SSRManifest> as SSRManifest,
  });
}

const window = new Window();

/**
 * A page component rendered whole (layout, header, footer) for `path` in `lang`, as a document. `component` is an
 * imported .astro file (typed `unknown`: the linter's TypeScript program has no type for .astro modules).
 */
export async function render(
  component: unknown,
  path: string,
  lang: Lang,
  props: Record<string, unknown> = {},
): Promise<Document> {
  container ??= create();
  const html = await (
    await container
  ).renderToString(component as AstroComponentFactory, {
    props: { lang, ...props },
    request: new Request(new URL(localizedPath(path, lang), 'https://example.org')),
    partial: false,
  });
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** An element's text with its white space collapsed ('' when there is no such element). */
export function textOf(doc: Document, selector: string): string {
  return (doc.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
