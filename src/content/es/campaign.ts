import type * as en from '../campaign.ts';
import { electionFacts as facts } from '../campaign.ts';
import { IDENTITY } from '../identity.ts';
import { longDate } from '../../lib/format.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/campaign.ts (issue 12). Names and the committee stay as registered. */

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

export const paidForDisclaimer = `Pagado por ${IDENTITY.committeeName}${IDENTITY.treasurer ? `, ${IDENTITY.treasurer}` : ''}`;

const es = (iso: string) => longDate(iso, 'es');

export const electionFacts = {
  electionDay: { label: es(facts.electionDay.iso) },
  earlyVoting: {
    start: { label: es(facts.earlyVoting.start.iso) },
    end: { label: es(facts.earlyVoting.end.iso) },
    label: `Del ${longDate(facts.earlyVoting.start.iso, 'es', { year: undefined })} al ${longDate(facts.earlyVoting.end.iso, 'es', { year: undefined })}`,
  },
  qualifiedOn: { label: es(facts.qualifiedOn.iso) },
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

export const newsletter = {
  supporterLabel: '1,350+',
  heading: 'Manténgase informado',
  text: 'Únase a más de 1,350 simpatizantes que reciben noticias de la campaña, invitaciones a eventos y oportunidades de voluntariado.',
} satisfies Translation<typeof en.newsletter>;
