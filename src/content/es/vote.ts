import type * as en from '../vote.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/vote.ts. */

/** A sentence's closing period, unless it ends in an abbreviation's ("8:00 p.m."), which closes it too. */
const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

export const electionWords = {
  range: (from: string, to: string) => `Del ${from} al ${to}`,
  /** After "fue" or "es": "del 27 de septiembre al 4 de octubre", or one day, "el 1 de noviembre". */
  midSentence: (phrase: string) => (phrase.startsWith('Del ') ? `del ${phrase.slice(4)}` : `el ${phrase}`),
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
      sentence(`La votación anticipada está abierta hoy, de ${open} a ${close}`),
    earlyVotingNext: (day: string) => `La votación anticipada continúa el ${day}.`,
    finalDays: (day: string, open: string, close: string) =>
      sentence(`La votación anticipada terminó. Las urnas abren el ${day} de ${open} a ${close}`),
    pollsOpen: (close: string) =>
      `${sentence(`Las urnas están abiertas hoy hasta las ${close}`)} Si está en la fila a las ${close}, puede votar.`,
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
  deadlinesPast: {
    inPerson: 'La inscripción en persona cerró el',
    byMail: 'La inscripción por correo cerró el',
    online: 'La inscripción en línea cerró el',
    mailRequest: 'Las solicitudes de boleta por correo cerraron el',
    mailReturn: 'Las boletas por correo debían llegar el',
    electionDay: 'La elección fue el',
    results: 'Los resultados se esperaban el',
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
  earlyRan: (range: string, sites: number) =>
    `La votación anticipada fue ${range.startsWith('Del ') ? `del ${range.slice(4)}` : `el ${range}`}${sites > 0 ? ` en ${sites === 1 ? 'un lugar' : `${sites} lugares`}` : ''}.`,
  dayColumn: 'Día',
  hoursColumn: 'Horario',
  sitesHeading: 'Lugares de votación anticipada',
  mapLink: (name: string) => `Mapa de ${name}`,
  electionDayHeading: 'Día de la elección',
  pollHours: (open: string, close: string) => `Las urnas están abiertas de ${open} a ${close}.`,
  pollHoursPast: (open: string, close: string) => `Las urnas estuvieron abiertas de ${open} a ${close}.`,
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

export const planCopy = {
  heading: 'Haga un plan para votar',
  lead: 'Elija su día y cómo va a votar. Le enviaremos un recordatorio la noche anterior, con sus lugares y horarios.',
  formLabel: 'Plan para votar',
  day: '¿Cuándo va a votar?',
  chooseDay: 'Elija un día',
  earlyDay: (day: string) => `${day} (votación anticipada)`,
  electionDay: (day: string) => `${day} (día de la elección)`,
  method: '¿Cómo va a votar?',
  chooseMethod: 'Elija una opción',
  methods: { 'in-person': 'En persona', mail: 'Por correo' },
  timeOfDay: '¿A qué hora del día? (opcional)',
  noTime: 'Sin preferencia',
  times: { morning: 'Mañana', midday: 'Mediodía', afternoon: 'Tarde', evening: 'Noche' },
  bringing: '¿A quién va a llevar? (opcional)',
  bringingHint: 'Un amigo, su familia, un vecino…',
  name: 'Su nombre',
  phone: 'Teléfono móvil',
  email: 'Correo electrónico',
  contactHint: 'Un teléfono o un correo electrónico, para poder recordárselo.',
  /** Under the form: a plan is changed only from its own page. */
  ownPlanNote:
    '¿Ya hizo un plan con este teléfono o correo? Ese plan no cambia desde aquí: cámbielo en su propia página, con el enlace de su confirmación o de sus recordatorios.',
  submit: 'Guardar mi plan',
  submitting: 'Guardando…',
  closed: 'Las urnas han cerrado: los planes para votar están cerrados en esta elección.',
  errors: {
    name: 'Escriba su nombre',
    nameCharacters:
      'Escriba el nombre sin caracteres de formato invisibles (como marcas de dirección del texto o de ancho cero)',
    day: 'Elija un día de la lista',
    dayPast: 'Ese día ya pasó: elija otro día de la lista',
    dayMail: 'La boleta por correo debe llegar antes de la fecha límite de devolución: elija un día anterior',
    method: 'Elija cómo va a votar',
    contact: 'Escriba un teléfono o un correo electrónico para poder recordárselo',
    phoneForSms: 'Escriba un número móvil para los recordatorios por mensaje de texto',
    emailForEmail: 'Escriba un correo electrónico para los recordatorios por correo',
    closed: 'Las urnas han cerrado: los planes para votar están cerrados en esta elección.',
    saved: 'Su plan para votar está guardado.',
    badLink: 'Este enlace ya no es válido. Use el enlace de su último recordatorio.',
    voted: '¡Gracias por votar! No le enviaremos más recordatorios.',
    stopped: 'Sus recordatorios están detenidos. No le enviaremos más recordatorios de este plan.',
    resumed: 'Sus recordatorios están activos de nuevo.',
    changed: 'Su plan está cambiado.',
    phone: 'Escriba un número de teléfono válido',
    email: 'Escriba un correo electrónico válido',
    captcha: 'Complete el CAPTCHA',
    offline: 'No pudimos guardar su plan. Revise su conexión e inténtelo de nuevo.',
  },
  page: {
    title: 'Su plan para votar',
    description: 'Su plan para votar: su día, sus lugares y horarios, y un recordatorio en su calendario.',
    heading: 'Su plan para votar',
    saved: 'Su plan está guardado.',
    when: 'Cuándo',
    how: 'Cómo',
    timeOfDay: 'Hora del día',
    bringing: 'Lleva a',
    where: 'Dónde y cuándo',
    remindedBy: 'Recordatorios',
    remindText: 'Por mensaje de texto',
    remindEmail: 'Por correo electrónico',
    noReminders: 'Ninguno (no pidió recordatorios)',
    addToCalendar: 'Agregar al calendario (.ics)',
    changePlan: 'Cambiar mi plan',
    votedButton: 'Ya voté',
    votedHeading: '¡Gracias por votar!',
    votedText: 'Nos dijo que ya votó. No le enviaremos más recordatorios.',
    stopButton: 'Detener mis recordatorios',
    stoppedText: 'Sus recordatorios están detenidos.',
    resumeButton: 'Reanudar mis recordatorios',
    changeHeading: 'Cambiar mi plan',
    changeLead:
      'Elija otro día o forma de votar. Si detuvo sus recordatorios, siguen detenidos hasta que los reanude aquí.',
    changeSubmit: 'Guardar el cambio',
    actionsLabel: 'Actualizar su plan',
    badLink: 'Este enlace no es válido. Use el enlace de su confirmación o de su último recordatorio.',
    unavailable: 'No pudimos cargar su plan en este momento. Inténtelo de nuevo en un minuto.',
  },
  earlyWhere: (hours: string, sites: string) =>
    `Votación anticipada, ${hours}, en cualquiera de estos lugares: ${sites}`,
  electionDayWhere: (hours: string) =>
    `Día de la elección, urnas abiertas ${hours}, en su lugar de votación asignado`,
  mailWhere: (deadline: string) => `Envíe su boleta este día: debe llegar a más tardar el ${deadline}`,
  calendarTitle: { 'in-person': 'Votar', mail: 'Enviar mi boleta por correo' },
  reminder: {
    eveText: (program: string, day: string, how: string, link: string) =>
      `${program}: Recordatorio: su plan es votar ${how} mañana, ${day}. Lugares y horarios: ${link} Responda ALTO para cancelar.`,
    morningText: (program: string, close: string, link: string) =>
      `${program}: Hoy es el día de la elección: las urnas están abiertas hasta las ${close}. ¿Ya votó? Díganos: ${link} Responda ALTO para cancelar.`,
    eveSubject: (day: string) => `Su plan para votar: mañana, ${day}`,
    morningSubject: 'Hoy es el día de la elección',
    eveIntro: (how: string, day: string) => `Su plan es votar ${how} mañana, ${day}.`,
    morningIntro: (close: string) =>
      `Hoy es el día de la elección. Las urnas están abiertas hasta las ${close}: si está en la fila a esa hora, puede votar.`,
    how: { 'in-person': 'en persona', mail: 'por correo' },
    pollingPlace: (href: string) => `Encuentre su lugar de votación: ${href}`,
    planLink: (href: string) => `Su plan, "Ya voté" y el archivo de calendario: ${href}`,
    stopLink: (href: string) => `Detener estos recordatorios: ${href}`,
  },
} satisfies Translation<typeof en.planCopy>;

export const afterCopy = {
  nextHeading: 'Lo que viene',
  next: [
    'La transición: en las próximas semanas nombraremos al equipo de transición y publicaremos su plan, de forma abierta.',
    'Los primeros 100 días: la plataforma se convierte en la agenda, empezando por la revisión del presupuesto y las reparaciones del drenaje.',
    'Siga participando: invitamos a los voluntarios que impulsaron esta campaña a ayudar a dar forma al trabajo que viene.',
  ],
  retireDebt: {
    heading: 'Ayude a saldar la deuda de la campaña',
    lead: 'La campaña ha terminado. Las contribuciones ahora pagan las cuentas pendientes, para que pueda cerrar sus libros sin deudas.',
  },
  closedHeading: 'Manténgase en contacto',
  volunteerClosed:
    'La campaña ha terminado, así que no estamos recibiendo inscripciones de voluntarios. Gracias a todos los que ayudaron.',
  textClosed:
    'La campaña ha terminado, así que la inscripción a mensajes de texto está cerrada. Gracias por acompañarnos.',
  stayInTouch: { label: 'Suscríbase a nuestro boletín' },
} satisfies Translation<typeof en.afterCopy>;
