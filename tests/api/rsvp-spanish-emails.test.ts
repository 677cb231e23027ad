import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminders } from '../../src/lib/server/events/reminders.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, valuesOf } from '../helpers/forms.ts';
import { cancel, cancelLinkIn, cancelUrlIn, person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';

/*
 * A voter who RSVPs on a Spanish event page reads every email of the RSVP flow in Spanish, with the event's Spanish
 * title and links to the Spanish pages; the reminder text too. An English RSVP to the same event stays English.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

interface Mail {
  to: string;
  subject: string;
  text: string;
}
const mailTo = async (to: string) => (await valuesOf<Mail>('outbox', 'email/')).filter((m) => m.to === to);
const ENGLISH_WORDS = /\b(You're|Event:|When:|Where:|Party:|Cancel here|Tomorrow:|New Orleans time)\b/;

describe('RSVP emails in the language of the page', () => {
  it('confirmation, waitlist, promotion and reminder come in Spanish with Spanish links', async () => {
    const es = { title: 'Asamblea sobre el drenaje', description: 'Venga a hablar del drenaje.' };
    const event = await rsvpEventFixture(1, { translations: { es } });
    const ana = person({ lang: 'es', name: 'Lucía Pérez' });
    const jose = person({ lang: 'es', name: 'José María', smsReminder: true, phone: '212-555-0184' });
    expect((await rsvpTo(event.id, ana)).status).toBe(201);
    expect((await rsvpTo(event.id, jose)).status).toBe(201);

    const [going] = await mailTo(ana.email);
    expect(going?.subject).toBe(`Asistirá: ${es.title}`);
    expect(going?.text).toContain('Hola, Lucía Pérez:');
    expect(going?.text).toContain(`Evento: ${es.title}`);
    expect(going?.text).toContain('(hora de Nueva Orleans)');
    expect(going?.text).toContain(`/es/events/${event.id}`);
    expect(cancelUrlIn(going!.text).pathname).toBe('/es/rsvp/cancel');
    expect(going?.text).not.toMatch(ENGLISH_WORDS);
    expect(going?.text).not.toContain('Town Hall on Drainage');

    const [waitlisted] = await mailTo(jose.email);
    expect(waitlisted?.subject).toBe(`Está en la lista de espera: ${es.title}`);
    expect(waitlisted?.text).toContain('(número 1)');
    expect(waitlisted?.text).not.toMatch(ENGLISH_WORDS);

    // Lucía cancels: José is promoted, and told in Spanish.
    expect((await cancel(cancelLinkIn(going!.text))).status).toBe(200);
    const promoted = (await mailTo(jose.email)).find((m) => m.subject.startsWith('Se liberó un lugar'));
    expect(promoted?.subject).toBe(`Se liberó un lugar: asistirá a ${es.title}`);
    expect(promoted?.text).not.toMatch(ENGLISH_WORDS);
    expect(cancelUrlIn(promoted!.text).pathname).toBe('/es/rsvp/cancel');

    // The day before, at noon in New Orleans (an explicit offset: -06:00 in winter, 13:00 in summer time).
    const eve = new Date(Date.parse(`${event.eventDate}T12:00:00-06:00`) - 86_400_000);
    // (Other events of this file may fall on the same day: what José gets is asserted, not the run's totals.)
    await runReminders(eve);
    const reminder = (await mailTo(jose.email)).find((m) => m.subject.startsWith('Mañana'));
    expect(reminder?.subject).toBe(`Mañana: ${es.title}`);
    expect(reminder?.text).toContain('Le recordamos que viene mañana:');
    expect(reminder?.text).not.toMatch(ENGLISH_WORDS);
    const texts = (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter(
      (m) => m.to === '+12125550184',
    );
    expect(texts.map((t) => t.body)).toEqual([
      expect.stringContaining(`Recordatorio: ${es.title} es mañana`),
    ]);
    expect(texts[0]?.body).toMatch(/Responda ALTO para cancelar\.$/);
    expect(texts[0]?.body).not.toMatch(/Reply STOP/);
  });

  it('an English RSVP to the same kind of event stays in English, with the English title and pages', async () => {
    const event = await rsvpEventFixture(5, {
      translations: { es: { title: 'Mitin', description: 'Venga.' } },
    });
    const sam = person({ name: 'Sam Lee' });
    expect((await rsvpTo(event.id, sam)).status).toBe(201);
    const [mail] = await mailTo(sam.email);
    expect(mail?.subject).toBe("You're going: Town Hall on Drainage");
    expect(mail?.text).toContain('Hi Sam Lee,');
    expect(mail?.text).toContain(`/events/${event.id}`);
    expect(mail?.text).not.toContain('/es/');
    expect(mail?.text).not.toContain('Mitin');
  });
});
