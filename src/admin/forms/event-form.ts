import { DEFAULT_EVENTS_EMAIL } from '../../content/identity.ts';
import {
  eventTranslationStatus,
  type CampaignEvent,
  type EventInput,
  type EventType,
} from '../../lib/schemas/event.ts';
import type { TranslationStatus } from '../../lib/schemas/translation.ts';

export interface EventForm {
  id: number;
  title: string;
  description: string;
  location: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  eventType: EventType;
  isPublic: boolean;
  /** Text of the number input; empty means unlimited. */
  maxAttendees: string;
  registrationRequired: boolean;
  registrationUrl: string;
  contactEmail: string;
  notes: string;
  updatedAt: string;
  /** The Spanish title and description (docs/decisions/166-spanish.md); both empty means no Spanish version. */
  esTitle: string;
  esDescription: string;
  /** "Mark as up to date": the Spanish still fits the English being saved. */
  esUpToDate: boolean;
  /** The Spanish version as loaded: whether there was one, and its status then. */
  esLoaded: { title: string; description: string; status: TranslationStatus };
}

export function newEventForm(): EventForm {
  return {
    id: 0,
    title: '',
    description: '',
    location: '',
    eventDate: '',
    startTime: '',
    endTime: '',
    eventType: 'town_hall',
    isPublic: true,
    maxAttendees: '',
    registrationRequired: false,
    registrationUrl: '',
    contactEmail: DEFAULT_EVENTS_EMAIL,
    notes: '',
    updatedAt: '',
    esTitle: '',
    esDescription: '',
    esUpToDate: false,
    esLoaded: { title: '', description: '', status: 'missing' },
  };
}

export function eventForm(e: CampaignEvent): EventForm {
  return {
    id: e.id,
    title: e.title,
    description: e.description,
    location: e.location,
    eventDate: e.eventDate,
    startTime: e.startTime,
    endTime: e.endTime,
    eventType: e.eventType,
    isPublic: e.isPublic,
    maxAttendees: e.maxAttendees === null ? '' : String(e.maxAttendees),
    registrationRequired: e.registrationRequired,
    registrationUrl: e.registrationUrl,
    contactEmail: e.contactEmail,
    notes: e.notes,
    updatedAt: e.updatedAt,
    esTitle: e.translations.es?.title ?? '',
    esDescription: e.translations.es?.description ?? '',
    esUpToDate: false,
    esLoaded: {
      title: e.translations.es?.title ?? '',
      description: e.translations.es?.description ?? '',
      status: eventTranslationStatus(e, 'es'),
    },
  };
}

/** The Spanish part of the save: a version, null to remove the loaded one, or nothing. */
function spanishPayload(f: EventForm): EventInput['translations'] {
  const title = f.esTitle.trim();
  const description = f.esDescription.trim();
  if (!title && !description) return f.esLoaded.status === 'missing' ? undefined : { es: null };
  return { es: { title, description, ...(f.esUpToDate ? { upToDate: true } : {}) } };
}

/** Max attendees: empty gives none (unlimited); otherwise an integer. */
export function maxAttendeesValue(text: string): number | null {
  const t = text.trim();
  if (!t) return null;
  const n = Number.parseInt(t, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

export function eventPayload(f: EventForm): EventInput {
  const payload: EventInput = {
    title: f.title.trim(),
    description: f.description.trim(),
    location: f.location.trim(),
    eventDate: f.eventDate,
    startTime: f.startTime,
    endTime: f.endTime,
    eventType: f.eventType,
    isPublic: f.isPublic,
    maxAttendees: maxAttendeesValue(f.maxAttendees),
    registrationRequired: f.registrationRequired,
    registrationUrl: f.registrationUrl.trim(),
    contactEmail: f.contactEmail.trim() || DEFAULT_EVENTS_EMAIL,
    notes: f.notes.trim(),
  };
  if (f.id && f.updatedAt) payload.expectedUpdatedAt = f.updatedAt;
  const translations = spanishPayload(f);
  if (translations) payload.translations = translations;
  return payload;
}
