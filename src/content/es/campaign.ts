import * as en from '../campaign.ts';
import { IDENTITY, paidForLine } from '../identity.ts';
import { formatNumber, longDate } from '../../lib/format.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/campaign.ts (docs/decisions/166-spanish.md). Names and the committee stay as registered. */

const city = 'Nueva Orleans';

export const candidate = {
  // Names are not translated: the identity module's, as they are.
  firstName: IDENTITY.candidateFirstName,
  lastName: IDENTITY.candidateLastName,
  fullName: IDENTITY.candidateName,
  committeeName: IDENTITY.committeeName,
  office: 'Alcalde',
  city,
  state: 'Luisiana',
  tagline: `Cuentas honestas, gobierno abierto y una ${city} que funcione para todos.`,
} satisfies Translation<typeof en.candidate>;

export const paidForDisclaimer = paidForLine(IDENTITY, 'es');

const es = (iso: string) => longDate(iso, 'es');

export const electionFacts = {
  electionDay: { label: es(en.electionFacts.electionDay.iso) },
  earlyVoting: {
    start: { label: es(en.electionFacts.earlyVoting.start.iso) },
    end: { label: es(en.electionFacts.earlyVoting.end.iso) },
    label: `Del ${longDate(en.electionFacts.earlyVoting.start.iso, 'es', { year: undefined })} al ${longDate(en.electionFacts.earlyVoting.end.iso, 'es', { year: undefined })}`,
  },
  qualifiedOn: { label: es(en.electionFacts.qualifiedOn.iso) },
} satisfies Translation<typeof en.electionFacts>;

export const primaryNav = [
  { label: 'Inicio' },
  { label: 'Biografía' },
  { label: 'Propuestas' },
  { label: 'Noticias' },
  { label: 'Contacto' },
] satisfies Translation<typeof en.primaryNav>;

export const donateLink = { label: 'Donar' } satisfies Translation<typeof en.donateLink>;
export const volunteerLink = { label: 'Voluntariado' } satisfies Translation<typeof en.volunteerLink>;

export const footerNav = [
  { label: 'Biografía' },
  { label: 'Propuestas' },
  volunteerLink,
  donateLink,
  { label: 'Noticias' },
  { label: 'Contacto' },
  { label: 'Política de Privacidad' },
  { label: 'Términos de Uso' },
] satisfies Translation<typeof en.footerNav>;

const supporters = formatNumber(en.newsletter.supporterCount, 'es');

export const newsletter = {
  supporterLabel: `${supporters}+`,
  heading: 'Manténgase informado',
  text: `Únase a más de ${supporters} simpatizantes que reciben noticias de la campaña, invitaciones a eventos y oportunidades de voluntariado.`,
} satisfies Translation<typeof en.newsletter>;
