import { IDENTITY, officeAddress } from '../../src/content/identity.ts';
import { articleSourceHash, type Article } from '../../src/lib/schemas/article.ts';
import { eventSourceHash, type CampaignEvent } from '../../src/lib/schemas/event.ts';
import type { Metric, Milestone, VolunteerGoal } from '../../src/lib/schemas/progress.ts';
import type { SocialLink } from '../../src/lib/schemas/social.ts';
import { articles, seedArticle } from '../../src/lib/server/content/articles.ts';
import { campaignToday, events } from '../../src/lib/server/content/events.ts';
import { endOfWeek, goals, metrics, milestones } from '../../src/lib/server/content/progress.ts';
import { socialLinks } from '../../src/lib/server/content/social.ts';
import { isLocalMode } from '../../src/lib/server/env.ts';
import { hashed, key } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { PLAN_CONSENT } from '../../src/content/consent.ts';
import { calendarFromFile } from '../../src/content/election-lines.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import type { StoredVotePlan } from '../../src/lib/schemas/vote-plan.ts';
import {
  linkKey,
  NEW_PLAN_STATE,
  planKey,
  recentKey,
  votePlans,
} from '../../src/lib/server/vote-plans/record.ts';
import { seedDevUsers } from './dev-users.mts';

/**
 * Local demo content for `npm run dev` (written by `npm run seed`, never by a
 * request handler): realistic New Orleans campaign articles, events, social
 * links and progress figures, plus the documented dev users. Lives under
 * scripts/ so no function bundle can contain it. Idempotent: every record has a
 * fixed id and is created with onlyIfNew, and a marker skips a seeded store.
 * Dates are relative to today so the events stay upcoming.
 */
export const SEED_MARKER = key('seeded', 'v1');

/** Seeds the current store unless its `seeded/v1` marker is there. Refuses production. */
export async function seedLocalStore(now = new Date()): Promise<'seeded' | 'already seeded'> {
  if (!isLocalMode()) throw new Error('The demo seed is for local mode only (APP_ENV development or test).');
  if (await kv('meta').get(SEED_MARKER)) return 'already seeded';
  await seedContent(now);
  await seedDemoPlan(now, await seedElectionCalendar(now));
  await seedDevUsers();
  await kv('meta').create(SEED_MARKER, { seededAt: now.toISOString() });
  return 'seeded';
}

/** The demo plan to vote's link id: its page is /vote/plan?id=DEMO_PLAN_LINK (the browser checks open it). */
export const DEMO_PLAN_LINK = 'DemoPlanToVote-Link001';

/**
 * The calendar the local pages are built with (ELECTION_BUILD_CALENDAR's file, else the default) is the stored one
 * too, so the pages, the endpoints and the plan pages agree (docs/decisions/157-election-calendar.md); nothing
 * is stored for the default.
 */
async function seedElectionCalendar(now: Date): Promise<ElectionCalendar> {
  const file = process.env.ELECTION_BUILD_CALENDAR;
  const calendar = calendarFromFile(file);
  if (file) await setElectionCalendar(calendar, 'seed', now);
  return calendar;
}

/** One plan to vote for the calendar's Election Day (docs/decisions/158-plan-to-vote.md), no reminders queued. */
async function seedDemoPlan(now: Date, calendar: ElectionCalendar): Promise<void> {
  const at = now.toISOString();
  const email = 'demo-voter@example.org';
  const id = hashed(email);
  const consent = { at, ...PLAN_CONSENT.en.email };
  const round = calendar.mode === 'runoff' && calendar.runoff ? 'runoff' : 'primary';
  await votePlans().create(linkKey(DEMO_PLAN_LINK), { round, id });
  await votePlans().create(planKey(round, id), {
    id,
    round,
    linkId: DEMO_PLAN_LINK,
    day: (calendar[round] ?? calendar.primary).electionDay.date,
    method: 'in-person',
    timeOfDay: 'morning',
    bringing: 'My neighbor',
    name: 'Demo Voter',
    phone: null,
    email,
    lang: 'en',
    smsConsent: null,
    emailConsent: consent,
    ...NEW_PLAN_STATE,
    createdAt: at,
    updatedAt: at,
    ip: null,
    userAgent: null,
  } satisfies StoredVotePlan);
  await votePlans().create(recentKey(round, at, id), {});
}

const DAY = 86_400_000;
const daysFrom = (now: Date, days: number) => new Date(now.getTime() + days * DAY);
const dateIn = (now: Date, days: number) => campaignToday(daysFrom(now, days));

/** Seeds the demo content (not the users). Tests call it directly under APP_ENV=test. */
export async function seedContent(now = new Date()): Promise<void> {
  const candidate = IDENTITY.candidateName;
  const stamp = (days: number) => daysFrom(now, days).toISOString();
  const article = (
    a: Omit<Article, 'createdAt' | 'updatedAt' | 'translations'> & {
      ageDays: number;
      /** A Spanish version made from this English (docs/decisions/166-spanish.md). */
      es?: Pick<Article, 'title' | 'slug' | 'excerpt' | 'content'>;
    },
  ): Article => {
    const { ageDays, es, ...rest } = a;
    const updatedAt = stamp(-ageDays);
    const source = { sourceHash: articleSourceHash(rest), sourceUpdatedAt: updatedAt, updatedAt };
    return {
      ...rest,
      createdAt: stamp(-ageDays - 1),
      updatedAt,
      translations: es ? { es: { ...es, ...source } } : {},
    };
  };
  const seedArticles: Article[] = [
    article({
      id: 1,
      ageDays: 2,
      title: 'A Plan to Fix Our Streets and Drainage, Block by Block',
      slug: 'plan-to-fix-streets-and-drainage',
      author: candidate,
      excerpt:
        'Every neighborhood deserves streets that drain and roads that do not swallow tires. Here is how we get there in four years.',
      imageUrl: '',
      isPublished: true,
      publishedAt: stamp(-2),
      es: {
        title: 'Un plan para arreglar nuestras calles y el drenaje, cuadra por cuadra',
        slug: 'plan-para-arreglar-calles-y-drenaje',
        excerpt:
          'Cada vecindario merece calles que drenen y vías que no se traguen las llantas. Así lo lograremos en cuatro años.',
        content: `<p>Quien haya manejado por Claiborne después de una tormenta de verano conoce el problema. Los sumideros están tapados, las bombas envejecen y las reparaciones se programan según quién grite más fuerte, no según la necesidad.</p>
<h2>Lo que haremos en los primeros 100 días</h2>
<ul><li>Publicar un mapa público de cada orden de trabajo abierta de calles y drenaje, actualizado cada semana.</li><li>Limpiar e inspeccionar cada sumidero en los vecindarios que se inundaron en los últimos tres años.</li><li>Fijar un plazo de 30 días para responder a los hundimientos reportados y abrirlo al seguimiento público.</li></ul>
<p>Lea el plan completo en nuestra <a href="/es/platform">página de propuestas</a>.</p>`,
      },
      content: `<p>Anyone who has driven down Claiborne after a summer storm knows the problem. Our catch basins are clogged, our pumps are aging, and repairs are scheduled by whoever shouts loudest instead of by need.</p>
<h2>What we will do in the first 100 days</h2>
<ul><li>Publish a public map of every open street and drainage work order, updated weekly.</li><li>Clean and inspect every catch basin in the neighborhoods that flooded in the last three years.</li><li>Set a 30-day response standard for reported cave-ins and open it to public tracking.</li></ul>
<h2>Paying for it honestly</h2>
<p>We will use the remaining federal recovery funds on projects that are ready to build, and report every dollar online. No new fees until the city can show it spends what it already has.</p>
<blockquote>Fixing the basics is not glamorous. It is the job.</blockquote>
<p>Read the full plan on our <a href="/platform">platform page</a> and tell us which block needs attention first.</p>`,
    }),
    article({
      id: 2,
      ageDays: 6,
      title: 'Campaign Opens Volunteer Hub in Mid-City',
      slug: 'volunteer-hub-opens-in-mid-city',
      author: 'Press Office',
      excerpt:
        'The new hub on Canal Street gives volunteers a place to pick up walk lists, make calls and meet their neighbors.',
      imageUrl: '',
      isPublished: true,
      publishedAt: stamp(-6),
      content: `<p><strong>NEW ORLEANS</strong> — The ${IDENTITY.committeeName} campaign today opened its volunteer hub at ${officeAddress}.</p>
<p>The hub is open Monday through Friday from 9 a.m. to 8 p.m. and Saturday from 10 a.m. to 6 p.m. Volunteers can pick up canvass packets, join phone banks and get trained on our text program.</p>
<p>"This campaign belongs to the people who knock the doors," said ${candidate}. "The hub is their home base."</p>
<p>Press inquiries: <a href="mailto:${IDENTITY.emails.press}">${IDENTITY.emails.press}</a>.</p>`,
    }),
    article({
      id: 3,
      ageDays: 11,
      title: 'Join Us for Town Halls in Every Council District',
      slug: 'town-halls-in-every-council-district',
      author: 'Campaign Team',
      excerpt:
        'From Algiers to New Orleans East, we are holding open town halls so every neighborhood can ask questions directly.',
      imageUrl: '',
      isPublished: true,
      publishedAt: stamp(-11),
      content: `<p>We are holding an open town hall in each of the five council districts this fall. No tickets, no screening of questions.</p>
<h3>How it works</h3>
<ol><li>Doors open 30 minutes early for coffee and conversation.</li><li>${candidate} takes questions from the floor for a full hour.</li><li>Campaign staff stay afterwards to follow up on specific problems.</li></ol>
<p>See the full schedule on the <a href="/blog">blog</a>, and bring a neighbor.</p>`,
    }),
    article({
      id: 4,
      ageDays: 17,
      title: 'Why I Signed the One-Term Pledge',
      slug: 'why-i-signed-the-one-term-pledge',
      author: `${candidate}, Candidate for Mayor`,
      excerpt:
        'Four years, no re-election campaign, and every decision made on the merits. A letter to the voters of New Orleans.',
      imageUrl: '',
      isPublished: true,
      publishedAt: stamp(-17),
      content: `<p>Dear neighbors,</p>
<p>I am asking for four years, and only four years. A mayor who is not raising money for the next race can say no to favors and yes to hard choices.</p>
<p>In those four years I will publish the city's contracts online, put a <em>real</em> timeline on every capital project, and answer your questions in public every month.</p>
<p>If that sounds like the city hall you want, <a href="/volunteer">join us</a>.</p>
<p>— ${candidate}</p>`,
    }),
    article({
      id: 5,
      ageDays: 0,
      title: 'Draft: Early Voting Guide for Orleans Parish',
      slug: 'early-voting-guide-orleans-parish',
      author: 'Campaign Team',
      excerpt: 'Where, when and how to vote early in Orleans Parish.',
      imageUrl: '',
      isPublished: false,
      publishedAt: null,
      content: `<p>Early voting locations, hours and what to bring. <em>To be confirmed with the Registrar of Voters before publishing.</em></p>`,
    }),
  ];
  for (const a of seedArticles) await seedArticle(a, false);
  await articles.reindex();

  const event = (
    e: Omit<
      CampaignEvent,
      'createdAt' | 'updatedAt' | 'contactEmail' | 'notes' | 'endTime' | 'translations'
    > &
      Partial<CampaignEvent> & { es?: { title: string; description: string } },
  ): CampaignEvent => {
    const { es, ...rest } = e;
    const source = { sourceHash: eventSourceHash(rest), sourceUpdatedAt: stamp(-20), updatedAt: stamp(-20) };
    return {
      endTime: '',
      contactEmail: IDENTITY.emails.events,
      notes: '',
      createdAt: stamp(-20),
      updatedAt: stamp(-20),
      translations: es ? { es: { ...es, ...source } } : {},
      ...rest,
    };
  };
  const seedEvents: CampaignEvent[] = [
    event({
      id: 1,
      title: 'Gentilly Town Hall',
      description: 'An open town hall on drainage, streets and public safety in District D.',
      es: {
        title: 'Asamblea comunitaria en Gentilly',
        description: 'Una asamblea abierta sobre drenaje, calles y seguridad pública en el Distrito D.',
      },
      location: 'Gentilly Terrace Community Center, 4720 Painters St, New Orleans, LA',
      eventDate: dateIn(now, 4),
      startTime: '18:30',
      endTime: '20:00',
      eventType: 'town_hall',
      isPublic: true,
      maxAttendees: 200,
      registrationRequired: false,
      registrationUrl: '',
    }),
    event({
      id: 2,
      title: 'Second Line for City Hall Reform',
      description: 'Walk with us from Armstrong Park to Lafayette Square. Brass band provided.',
      es: {
        title: 'Second line por la reforma de la Alcaldía',
        description:
          'Camine con nosotros desde Armstrong Park hasta Lafayette Square. Habrá banda de metales.',
      },
      location: 'Armstrong Park, 701 N Rampart St, New Orleans, LA',
      eventDate: dateIn(now, 9),
      startTime: '10:00',
      endTime: '12:00',
      eventType: 'rally',
      isPublic: true,
      maxAttendees: null,
      registrationRequired: false,
      registrationUrl: '',
    }),
    event({
      id: 3,
      title: 'Grassroots Fundraiser on Frenchmen Street',
      description: 'Live music, red beans and a short talk from the candidate. Suggested contribution $25.',
      es: {
        title: 'Recaudación de fondos comunitaria en la calle Frenchmen',
        description:
          'Música en vivo, frijoles rojos y una breve charla del candidato. Contribución sugerida: $25.',
      },
      location: 'The Marigny Hall, 626 Frenchmen St, New Orleans, LA',
      eventDate: dateIn(now, 15),
      startTime: '19:00',
      endTime: '21:30',
      eventType: 'fundraiser',
      isPublic: true,
      maxAttendees: 150,
      registrationRequired: true,
      registrationUrl: 'https://example.com/frenchmen-fundraiser',
    }),
    event({
      id: 4,
      title: 'Mayoral Candidate Forum',
      description: 'A forum hosted by neighborhood associations from across Uptown.',
      es: {
        title: 'Foro de candidatos a la alcaldía',
        description: 'Un foro organizado por asociaciones de vecinos de todo Uptown.',
      },
      location: 'Tulane University, McAlister Auditorium, New Orleans, LA',
      eventDate: dateIn(now, 23),
      startTime: '18:00',
      endTime: '19:30',
      eventType: 'debate',
      isPublic: true,
      maxAttendees: 800,
      registrationRequired: true,
      registrationUrl: 'https://example.com/uptown-forum',
    }),
    event({
      id: 5,
      title: 'Algiers Point Neighborhood Cleanup',
      description: 'Gloves, bags and water provided. Families welcome.',
      es: {
        title: 'Limpieza del vecindario de Algiers Point',
        description: 'Habrá guantes, bolsas y agua. Las familias son bienvenidas.',
      },
      location: 'Algiers Point Ferry Terminal, New Orleans, LA',
      eventDate: dateIn(now, 30),
      startTime: '09:00',
      endTime: '12:00',
      eventType: 'community_event',
      isPublic: true,
      maxAttendees: 60,
      registrationRequired: false,
      registrationUrl: '',
    }),
    event({
      id: 6,
      title: 'Volunteer Captains Strategy Meeting',
      description: 'Precinct captains only: walk lists and GOTV assignments.',
      es: {
        title: 'Reunión de estrategia de capitanes voluntarios',
        description: 'Solo para capitanes de precinto: listas de visitas y tareas para movilizar el voto.',
      },
      location: `Campaign Office, ${officeAddress}`,
      eventDate: dateIn(now, 6),
      startTime: '19:00',
      endTime: '20:30',
      eventType: 'community_event',
      isPublic: false,
      maxAttendees: 25,
      registrationRequired: false,
      registrationUrl: '',
      notes: 'Private: do not publish.',
    }),
    // An event that takes RSVPs on the site (registration required, no outside link), so a newcomer can try the
    // RSVP form, the waitlist and check-in (docs/decisions/164-dev-server-and-local-mode.md). Later than the
    // events the browser tests make (2-10 days out): /blog lists only the next three.
    event({
      id: 7,
      title: 'Voter Registration Drive in Mid-City',
      description:
        'Help neighbors register and check their polling place. Training at the start; RSVP so we have enough clipboards.',
      es: {
        title: 'Jornada de inscripción de votantes en Mid-City',
        description:
          'Ayude a sus vecinos a inscribirse y a confirmar su lugar de votación. Capacitación al comienzo; confirme su asistencia para tener suficientes tablillas.',
      },
      location: 'Mid-City Library, 4140 Canal St, New Orleans, LA',
      eventDate: dateIn(now, 12),
      startTime: '10:00',
      endTime: '13:00',
      eventType: 'community_event',
      isPublic: true,
      maxAttendees: 40,
      registrationRequired: true,
      registrationUrl: '',
    }),
  ];
  for (const e of seedEvents) await events.createWithId(e, false);
  await events.reindex();

  const handle = 'averyformayor';
  const link = (
    id: number,
    platform: SocialLink['platform'],
    url: string,
    h: string,
    isActive: boolean,
  ): SocialLink => ({
    id,
    platform,
    url,
    handle: h,
    isActive,
    displayOrder: id,
    updatedBy: 'seed',
    updatedAt: stamp(-20),
  });
  const seedLinks: SocialLink[] = [
    link(1, 'facebook', `https://www.facebook.com/${handle}`, 'Avery for Mayor', true),
    link(2, 'x', `https://x.com/${handle}`, `@${handle}`, true),
    link(3, 'instagram', `https://www.instagram.com/${handle}`, `@${handle}`, true),
    link(4, 'linkedin', `https://www.linkedin.com/in/${handle}`, '', false),
    link(5, 'youtube', `https://www.youtube.com/@${handle}`, `@${handle}`, true),
    link(6, 'tiktok', `https://www.tiktok.com/@${handle}`, `@${handle}`, false),
  ];
  for (const l of seedLinks) await socialLinks.createWithId(l, false);
  await socialLinks.reindex();

  const updatedAt = stamp(-1);
  const seedMetrics: Metric[] = [
    {
      id: 1,
      currentValue: 642,
      targetValue: 1000,
      label: 'Volunteers',
      sublabel: 'Neighbors signed up',
      description: 'People who have signed up to knock doors, make calls and staff events.',
      trend: '+38 this week',
      isPublic: true,
      updatedAt,
    },
    {
      id: 2,
      currentValue: 18250,
      targetValue: 50000,
      label: 'Doors Knocked',
      sublabel: 'Conversations at the door',
      description: 'Doors our volunteers have knocked across the city.',
      trend: '+2,100 this week',
      isPublic: true,
      updatedAt,
    },
    {
      id: 3,
      currentValue: 1375,
      targetValue: 2500,
      label: 'Individual Donors',
      sublabel: 'Grassroots contributions',
      description: 'People who have given to the campaign, most of them under $100.',
      trend: '+64 this week',
      isPublic: false,
      updatedAt,
    },
    {
      id: 4,
      currentValue: 41,
      targetValue: 72,
      label: 'Neighborhoods Reached',
      sublabel: 'Of 72 neighborhoods',
      description: 'New Orleans neighborhoods where we have held a meeting or canvass.',
      trend: '+3 this week',
      isPublic: true,
      updatedAt,
    },
  ];
  const deadline = endOfWeek(now);
  const seedGoals: VolunteerGoal[] = [
    {
      id: 1,
      currentCount: 9,
      targetCount: 15,
      deadline,
      description: 'New volunteer recruits',
      priority: 'high',
      updatedAt,
    },
    {
      id: 2,
      currentCount: 312,
      targetCount: 500,
      deadline,
      description: 'Voter contacts',
      priority: 'high',
      updatedAt,
    },
    {
      id: 3,
      currentCount: 2,
      targetCount: 3,
      deadline,
      description: 'Events staffed',
      priority: 'medium',
      updatedAt,
    },
    {
      id: 4,
      currentCount: 126,
      targetCount: 200,
      deadline,
      description: 'Volunteer hours',
      priority: 'medium',
      updatedAt,
    },
  ];
  const seedMilestones: Milestone[] = [
    {
      id: 1,
      currentCount: 1350,
      targetCount: null,
      label: 'Supporters',
      description: 'People who have signed up for campaign updates.',
      isPublic: true,
      updatedAt,
    },
    {
      id: 2,
      currentCount: 7,
      targetCount: 20,
      label: 'Town Halls Held',
      description: 'Open community meetings, at least one in every council district.',
      isPublic: true,
      updatedAt,
    },
    {
      id: 3,
      currentCount: 4820,
      targetCount: 10000,
      label: 'Petition Signatures',
      description: 'Signatures for the one-term pledge and ethics reform.',
      isPublic: true,
      updatedAt,
    },
  ];
  for (const m of seedMetrics) await metrics.createWithId(m, false);
  for (const g of seedGoals) await goals.createWithId(g, false);
  for (const m of seedMilestones) await milestones.createWithId(m, false);
  await Promise.all([metrics.reindex(), goals.reindex(), milestones.reindex()]);
}
