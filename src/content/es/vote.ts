import type * as en from '../vote.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/vote.ts. */

export const electionWords = {
  range: (from: string, to: string) => `Del ${from} al ${to}`,
  midSentence: (phrase: string) => `${phrase.charAt(0).toLowerCase()}${phrase.slice(1)}`,
  footer: {
    electionDayPast: 'La elección fue el',
    earlyVotingPast: 'La votación anticipada fue',
    runoffDay: 'Segunda vuelta:',
    runoffDayPast: 'La segunda vuelta fue el',
    runoffEarlyVoting: 'Votación anticipada de la segunda vuelta:',
    howToVote: 'Cómo votar',
  },
  countdown: {
    days: (n: number) => (n === 1 ? 'Falta 1 día para la elección' : `Faltan ${n} días para la elección`),
    runoffDays: (n: number) =>
      n === 1 ? 'Falta 1 día para la segunda vuelta' : `Faltan ${n} días para la segunda vuelta`,
    today: 'Hoy es el día de la elección',
  },
  stage: {
    registrationOpen: (deadline: string) =>
      `Inscríbase para votar antes del ${deadline} y haga un plan para votar.`,
    registrationClosed: (start: string) =>
      `La inscripción ha cerrado. La votación anticipada empieza el ${start}.`,
    earlyVotingToday: (open: string, close: string) =>
      `La votación anticipada está abierta hoy, de ${open} a ${close}.`,
    earlyVotingNext: (day: string) => `La votación anticipada continúa el ${day}.`,
    finalDays: (day: string, open: string, close: string) =>
      `La votación anticipada terminó. Las urnas abren el ${day} de ${open} a ${close}.`,
    pollsOpen: (close: string) =>
      `Las urnas están abiertas hoy hasta las ${close}. Si está en la fila a las ${close}, puede votar.`,
    pollsClosed: 'Las urnas han cerrado. Se están contando los votos.',
    won: 'Ganamos. Gracias a cada votante y voluntario: ahora empieza el trabajo.',
    lost: 'Los votos están contados y esta vez no alcanzó. Gracias por todo lo que dio a esta campaña.',
    ended: 'La campaña ha terminado. Gracias por formar parte de ella.',
    over: (day: string) => `La elección se celebró el ${day}. Gracias por votar.`,
  },
  runoffBadge: 'Segunda vuelta',
} satisfies Translation<typeof en.electionWords>;

export const icsWords = {
  electionDay: 'Día de la elección: urnas abiertas',
  runoffDay: 'Segunda vuelta: urnas abiertas',
  earlyVoting: 'Votación anticipada',
  runoffEarlyVoting: 'Votación anticipada de la segunda vuelta',
  details: 'Lugares, horarios y qué llevar:',
} satisfies Translation<typeof en.icsWords>;

export const voteCopy = {
  heading: 'Cómo votar',
  lead: 'Todo lo que necesita para votar en Nueva Orleans: inscripción, votación anticipada, el día de la elección y ayuda en las urnas.',
  navLabel: 'Votar',
  datesHeading: 'Fechas clave',
  deadlines: {
    inPerson: 'Inscripción en persona hasta el',
    byMail: 'Inscripción por correo (matasellos) hasta el',
    online: 'Inscripción en línea hasta el',
    mailRequest: 'Solicitud de boleta por correo hasta el',
    mailReturn: 'Devolución de la boleta por correo hasta el',
    electionDay: 'Día de la elección',
    results: 'Resultados previstos',
  },
  at: (date: string, time: string) => `${date} a las ${time}`,
  hours: (open: string, close: string) => `de ${open} a ${close}`,
  registerHeading: 'Inscríbase y verifique su inscripción',
  registerText:
    'Puede inscribirse en persona en la Oficina del Registrador de Votantes, por correo o en línea. Verifique su inscripción, su lugar de votación y su boleta de muestra en el portal de votantes de la Secretaría de Estado.',
  links: [
    { label: 'Inscribirse para votar en línea' },
    { label: 'Verificar su inscripción y lugar de votación' },
    { label: 'Solicitar una boleta por correo' },
  ],
  earlyHeading: 'Votación anticipada',
  earlyToday: 'Abierto hoy',
  earlyNone: 'No hay votación anticipada en esta elección.',
  earlyOver: 'La votación anticipada de esta elección terminó.',
  dayColumn: 'Día',
  hoursColumn: 'Horario',
  sitesHeading: 'Lugares de votación anticipada',
  mapLink: (name: string) => `Mapa de ${name}`,
  electionDayHeading: 'Día de la elección',
  pollHours: (open: string, close: string) => `Las urnas están abiertas de ${open} a ${close}.`,
  pollingPlace: { label: 'Encuentre su lugar de votación' },
  bringHeading: 'Qué llevar',
  bring: [
    'Una identificación con foto: licencia de conducir de Luisiana, la licencia digital LA Wallet, una tarjeta de identificación especial de Luisiana u otra identificación con foto reconocida que tenga su nombre y firma.',
    '¿No tiene identificación con foto? Igual puede votar: lleve una factura de servicios, un estado de cuenta bancario, un recibo de sueldo o un documento del gobierno con su nombre y dirección, y firme una declaración jurada en las urnas.',
    'Su boleta de muestra o sus notas (puede llevarlas a la cabina; no se puede usar el teléfono para grabar su boleta).',
  ],
  helpHeading: 'Ayuda de accesibilidad e idioma',
  help: [
    'Cada lugar de votación tiene una máquina de votación accesible. Si tiene una discapacidad, puede pedir ayuda en la cabina a una persona de su elección (que no sea su empleador ni un dirigente de su sindicato) o a un comisionado.',
    'Si no lee o no entiende bien el inglés, puede llevar a una persona de su elección para que le ayude a votar.',
    `¿Preguntas? Llame a la campaña al ${IDENTITY.phone.display}: le ayudaremos a encontrar su lugar de votación o transporte.`,
  ],
} satisfies Translation<typeof en.voteCopy>;
