import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import type { CampaignEvent, PublicEvent } from '../../schemas/event.ts';
import { toPublicEvent } from '../../schemas/public-projections.ts';
import { upcomingPublicEvents } from '../../schemas/event-rules.ts';
import { campaignToday } from '../../campaign-time.ts';
import { CollectionReader, type CollectionLayout } from '../storage/collection.ts';

/*
 * What GET /api/events needs, and nothing that loads zod: the events
 * collection's layout, its public view and the public read. The schema and
 * the writes are in events.ts.
 */

export { campaignToday };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Public view, derived at write time: public events from yesterday on (a day
 * of margin for clocks and time zones). Reads drop the ones that have passed.
 */
function publicView(items: CampaignEvent[]): CampaignEvent[] {
  return upcomingPublicEvents(items, campaignToday(new Date(Date.now() - DAY_MS)));
}

export const EVENTS_LAYOUT: CollectionLayout<CampaignEvent> = {
  store: 'events',
  counter: 'events',
  views: { public: publicView },
};

const reader = new CollectionReader<CampaignEvent>(EVENTS_LAYOUT);

/**
 * GET /api/events (`?lang=es`) and the ics feed: public events from today on,
 * soonest first (one blob read), in their public projection (no internal
 * fields), with each event's title and description in `lang` where it has
 * them, else English (`lang` on each says which).
 */
export async function publicEvents(lang: Lang = DEFAULT_LANG, now = new Date()): Promise<PublicEvent[]> {
  return upcomingPublicEvents(await reader.view<CampaignEvent[]>('public'), campaignToday(now)).map((e) =>
    toPublicEvent(e, lang),
  );
}
