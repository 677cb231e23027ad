import type { Lang } from '../lib/lang.ts';
/**
 * Who the campaign is: the ONE module that declares the candidate's name, the
 * committee, its treasurer line, addresses, phone and emails (docs/decisions/170-campaign-copy-and-identity.md, "One
 * identity"). Everything else derives from here: the paid-for line, the SMS
 * consent, HELP and confirmation texts, the event contact default, the contact
 * page, the Terms and the privacy policy. `tests/unit/identity.test.ts` fails if
 * any other module under src/ or scripts/ declares an email address or a phone
 * number of its own.
 *
 * The name is a placeholder (docs/decisions/170-campaign-copy-and-identity.md);
 * mailboxes use the reserved `.example` domain and the phone a 555-01xx number
 * until the campaign supplies real ones.
 */
/**
 * What this module shipped with before the campaign supplied its own facts
 * (docs/decisions/170-campaign-copy-and-identity.md). The launch
 * check refuses a production build while IDENTITY still holds any of them
 * (docs/decisions/085-launch-gate.md): replace the values below, never this
 * list. The `.example` domain and the 555-01xx number are recognised by rule.
 */
export const SHIPPED_PLACEHOLDERS = {
  candidateName: 'Jordan Avery',
  street: '1000 Canal Street, Suite 200',
} as const;

const firstName = 'Jordan';
const lastName = 'Avery';
const candidateName = `${firstName} ${lastName}`;
const office = 'Mayor';

/** Reserved placeholder domain (RFC 2606): never someone else's mailbox. */
const domain = 'averyformayor.example';
const mailbox = (local: string) => `${local}@${domain}`;

export const IDENTITY = {
  candidateName,
  candidateFirstName: firstName,
  candidateLastName: lastName,
  city: 'New Orleans',
  state: 'Louisiana',
  stateCode: 'LA',
  office,
  /** The committee as registered: the paid-for line and the SMS consent name it exactly like this. */
  committeeName: `${candidateName} for ${office}`,
  /** Treasurer line printed after the committee in the paid-for line, if the campaign's counsel wants one. */
  treasurer: null as string | null,
  /** Short program name used at the start of every text message. */
  smsProgramName: `${lastName} for ${office}`,
  domain,
  emails: {
    general: mailbox('info'),
    press: mailbox('press'),
    events: mailbox('events'),
    volunteer: mailbox('volunteer'),
    endorsements: mailbox('endorsements'),
    scheduling: mailbox('scheduling'),
    privacy: mailbox('privacy'),
  },
  phone: { display: '(504) 555-0125', e164: '+15045550125' },
  address: {
    street: '1000 Canal Street, Suite 200',
    city: 'New Orleans',
    stateCode: 'LA',
    zip: '70112',
  },
} as const;

/** The office address on one line, e.g. for the seed's press release and the contact page. */
export const officeAddress = `${IDENTITY.address.street}, ${IDENTITY.address.city}, ${IDENTITY.address.stateCode} ${IDENTITY.address.zip}`;

/** `tel:` link of the campaign phone. */
export const phoneHref = `tel:${IDENTITY.phone.e164}`;

const PAID_FOR_BY: Record<Lang, string> = { en: 'Paid for by', es: 'Pagado por' };

/** "Paid for by ..." line required on every page (with the treasurer line when there is one), in a language. */
export function paidForLine(
  identity: { committeeName: string; treasurer: string | null } = IDENTITY,
  lang: Lang = 'en',
): string {
  return `${PAID_FOR_BY[lang]} ${identity.committeeName}${identity.treasurer ? `, ${identity.treasurer}` : ''}`;
}

/** Default contact for a new event (spec section 3): the campaign's events address. */
export const DEFAULT_EVENTS_EMAIL: string = IDENTITY.emails.events;
