import type * as en from '../ui.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/ui.ts (docs/decisions/166-spanish.md). */

export const mediaCopy = {
  portraitAlt: `Retrato de ${IDENTITY.candidateName}, candidato a alcalde`,
} satisfies Translation<typeof en.mediaCopy>;

export const layoutCopy = {
  skipLink: 'Saltar al contenido principal',
  switchTo: 'Español',
  switchLabel: 'Leer esta página en español',
  offer: 'Leer esta página en español',
  offerDismiss: 'Cerrar',
} satisfies Translation<typeof en.layoutCopy>;

export const headerCopy = {
  brandOffice: 'para Alcalde de Nueva Orleans',
  menu: 'Menú',
  closeMenu: 'Cerrar el menú',
  mainNav: 'Principal',
  mainMenu: 'Menú principal',
} satisfies Translation<typeof en.headerCopy>;

export const footerCopy = {
  socialMedia: 'Redes sociales',
  footerNav: 'Pie de página',
  electionDay: 'Día de la elección:',
  earlyVoting: 'Votación anticipada:',
} satisfies Translation<typeof en.footerCopy>;

export const homeCopy = {
  heroHeading: `${IDENTITY.candidateName}, candidato a alcalde`,
  learnMore: 'Conozca más',
  learnMoreAbout: `sobre ${IDENTITY.candidateName}`,
  quoteCaption: `${IDENTITY.candidateName}, sobre el compromiso de un solo mandato`,
  pillarsHeading: 'Propuestas para el cambio',
  fullPlatform: 'Ver todas las propuestas',
  rotatingHeadline: 'titular rotativo',
  rotatingQuote: 'cita rotativa',
} satisfies Translation<typeof en.homeCopy>;

export const aboutCopy = {
  biographyHeading: 'Biografía',
  valuesHeading: 'Valores fundamentales',
} satisfies Translation<typeof en.aboutCopy>;

export const platformCopy = {
  prioritiesLabel: 'Prioridades',
  priorityNumber: (n: number) => `Prioridad ${n}: `,
} satisfies Translation<typeof en.platformCopy>;

export const contactPageCopy = {
  infoHeading: 'Información de contacto',
  emailHeading: 'Correo electrónico',
  phone: 'Teléfono',
  office: 'Oficina',
  officeHours: 'Horario de oficina',
  outreachHeading: 'Prensa, respaldos y eventos',
  faqHeading: 'Preguntas frecuentes',
  eventsHeading: 'Próximos eventos',
} satisfies Translation<typeof en.contactPageCopy>;

export const donatePageCopy = {
  amountHeading: 'Elija una cantidad',
  suggested: 'Contribuciones sugeridas:',
  spendingHeading: 'En qué se usa su dinero',
  budget: (label: string) => `Presupuesto de la campaña: ${label}`,
  rulesHeading: 'Límites y reglas de contribución',
  certification: 'Certificación del donante.',
  formInEnglish:
    'El formulario de donación todavía está en inglés. Si necesita ayuda para donar, llámenos o escríbanos.',
  openForm: 'O done en la página segura de donaciones',
  byCheck: (committee: string) => `Extienda su cheque a nombre de ${committee} y envíelo por correo a:`,
} satisfies Translation<typeof en.donatePageCopy>;

export const volunteerPageCopy = {
  areasHeading: 'Formas de ayudar',
  signupHeading: 'Inscríbase como voluntario',
  impactHeading: 'Su impacto',
} satisfies Translation<typeof en.volunteerPageCopy>;

export const articleCopy = {
  titleSuffix: `${IDENTITY.candidateName}, candidato a alcalde`,
  keywords: `${IDENTITY.candidateName}, alcaldía de Nueva Orleans, noticias`,
  unavailableHeading: 'No disponible por el momento',
  unavailableText: 'No podemos cargar este artículo en este momento. Inténtelo de nuevo en un minuto.',
  backToNews: 'Volver a Noticias',
  newsletterLabel: 'Boletín',
  untranslated: 'Este artículo todavía no está disponible en español; se muestra en inglés.',
} satisfies Translation<typeof en.articleCopy>;

export const legalCopy = {
  lastUpdated: 'Última actualización:',
  contents: 'Contenido',
  translationNote:
    'Traducción pendiente de revisión legal. En caso de diferencia, prevalece la versión en inglés.',
} satisfies Translation<typeof en.legalCopy>;

export const formUi = {
  firstName: 'Nombre',
  lastName: 'Apellido',
  fullName: 'Nombre completo',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  phoneOptional: 'Teléfono (opcional)',
  mobile: 'Número de celular',
  address1: 'Dirección (línea 1)',
  address2: 'Dirección (línea 2, opcional)',
  city: 'Ciudad',
  state: 'Estado',
  zip: 'Código postal (opcional)',
  selectState: 'Elija un estado',
  subject: 'Asunto',
  selectSubject: 'Elija un asunto',
  message: 'Mensaje',
  interests: '¿Cómo le gustaría ayudar? (opcional)',
  opensInNewTab: '(se abre en una pestaña nueva)',
  privacyPolicy: 'Política de Privacidad',
  termsOfUse: 'Términos de Uso',
  captchaRequired: 'Complete el CAPTCHA',
  captchaHuman: 'Soy una persona',
  captchaLegend: 'Modo de prueba local: CAPTCHA sin configurar',
  captchaLocalNote: 'En el modo de prueba local, marque la casilla de abajo.',
  captchaLoadError: 'No se pudo cargar el CAPTCHA. Revise su conexión y vuelva a cargar la página.',
  tryAgain: 'Intentar de nuevo',
  tryLater: 'Inténtelo de nuevo más tarde',
  textSignup: {
    formLabel: 'Inscribirse para recibir mensajes de texto',
    submit: 'Inscribirme para recibir mensajes de texto',
    submitting: 'Inscribiendo...',
    success: '¡Inscripción completada!',
    successText: '¡Ya está inscrito para recibir mensajes de texto!',
    failure: 'No se pudo completar la inscripción',
    firstNameTitle: 'Falta el nombre',
    firstNameText: 'Escriba su nombre.',
    consentTitle: 'Falta el consentimiento para mensajes de texto',
    consentText: 'Marque la casilla para aceptar recibir mensajes de texto.',
    phoneNeeded: 'Los mensajes de texto necesitan un número de teléfono: escriba su número de celular.',
  },
  volunteer: {
    formLabel: 'Inscripción de voluntarios',
    submit: 'Inscribirme como voluntario',
    submitting: 'Enviando...',
    saved:
      'No pudimos comunicarnos con nuestro servidor en este momento, así que su inscripción quedó guardada en este navegador y se enviará automáticamente la próxima vez que visite este sitio. Nuestro equipo de voluntarios se comunicará con usted cuando llegue.',
    resubmit:
      'Su inscripción guardada el {0} no se pudo enviar automáticamente. Complete el CAPTCHA y envíela de nuevo.',
    offline: 'No pudimos enviar su inscripción. Revise su conexión e inténtelo de nuevo.',
    checkForm: 'Revise el formulario e inténtelo de nuevo.',
  },
  contact: {
    formLabel: 'Envíenos un mensaje',
    submit: 'Enviar mensaje',
    submitting: 'Enviando...',
    success: '¡Mensaje enviado!',
    failure: 'No se pudo enviar el mensaje',
    failureText: 'Inténtelo de nuevo más tarde o comuníquese con nosotros directamente.',
  },
  nameCharacters:
    'Escriba el nombre sin caracteres de formato invisibles (como marcas de dirección del texto o de ancho cero)',
  fields: {
    firstName: 'El nombre es obligatorio',
    lastName: 'El apellido es obligatorio',
    name: 'El nombre completo es obligatorio',
    email: 'Escriba un correo electrónico válido',
    phone: 'Escriba un número de teléfono válido',
    address1: 'La dirección es obligatoria',
    city: 'La ciudad es obligatoria',
    state: 'Elija un estado',
    zip: 'Escriba un código postal válido (5 dígitos)',
    subject: 'Elija un asunto',
    message: 'El mensaje es obligatorio',
  },
} satisfies Translation<typeof en.formUi>;

export const islandUi = {
  pause: 'Pausar',
  resume: 'Reanudar',
  play: 'Reproducir',
  carouselLabel: 'Videos de la campaña',
  slideOf: '{0} de {1}',
  slideStatus: 'Diapositiva {0} de {1}',
  playVideo: 'Reproducir video: {0}',
  videoPlayer: 'Video: {0}',
  donateNow: 'Donar ahora',
  previousSlide: 'Diapositiva anterior',
  nextSlide: 'Diapositiva siguiente',
  pauseSlideshow: 'Pausar la presentación',
  playSlideshow: 'Reproducir la presentación',
  newsUnavailable: 'No pudimos cargar las noticias en este momento. Inténtelo de nuevo más tarde.',
  noNews: 'Todavía no hay noticias. Vuelva pronto.',
  readMore: 'Leer más',
  eventsUnavailable: 'No pudimos cargar los eventos en este momento. Inténtelo de nuevo más tarde.',
  noEvents: 'No hay eventos programados por ahora. Vuelva pronto.',
  registrationRequired: 'Requiere inscripción',
  openToAll: 'Abierto a todos',
  date: 'Fecha',
  time: 'Hora',
  location: 'Lugar',
  maxAttendees: 'Cupo máximo',
  rsvpFor: 'para {0}',
  registerNow: 'Inscribirse',
  registerFor: 'en {0} (se abre en una pestaña nueva)',
  addToCalendar: 'Agregar al calendario',
  rsvp: 'Confirmar asistencia',
  calendarName: 'Eventos de {0}',
  eventTypeLabels: {
    town_hall: 'Asamblea comunitaria',
    fundraiser: 'Recaudación de fondos',
    community_event: 'Evento comunitario',
    debate: 'Debate',
    rally: 'Mitin',
  },
  categoryLabels: {
    Policy: 'Propuestas',
    'Campaign News': 'Noticias de la campaña',
    Events: 'Eventos',
    News: 'Noticias',
  },
  chooseAmount: 'Elija una cantidad',
  donationFrame: 'Formulario de donación seguro',
  donationsNotConfigured: 'Las donaciones en línea todavía no están configuradas.',
  donationsNotConfiguredText: 'Vuelva pronto o comuníquese con la campaña para donar con cheque.',
  share: 'Compartir',
  linkCopied: '¡Enlace copiado!',
  copyFailed: 'No se pudo copiar el enlace',
  raisedOf: 'recaudados de {0}',
  percentOfGoal: '{0}% de la meta',
  goalFallback: 'Nuestra meta de recaudación',
} satisfies Translation<typeof en.islandUi>;

export const eventPageCopy = {
  titleSuffix: `${IDENTITY.candidateName}, candidato a alcalde`,
  description: (date: string, time: string, location: string) => `${date}, ${time}, en ${location}.`,
  keywords: (type: string) => `${IDENTITY.candidateName}, alcaldía de Nueva Orleans, eventos, ${type}`,
  notFoundTitle: 'Evento no encontrado',
  notFoundDescription: 'Este evento no está en el calendario, ya pasó o es privado.',
  notFoundKeywords: `${IDENTITY.candidateName}, eventos`,
  notFoundHeading: 'Evento no encontrado',
  notFoundText: 'Este evento no está en el calendario: puede que ya haya pasado o que se haya retirado.',
  unavailableHeading: 'No disponible por el momento',
  unavailableText: 'No podemos cargar este evento en este momento. Inténtelo de nuevo en un minuto.',
  detailsHeading: 'Detalles',
  date: 'Fecha',
  time: 'Hora',
  location: 'Lugar',
  capacity: 'Cupo',
  people: (n: number) => `${n} personas`,
  registerNow: 'Inscribirse',
  back: { label: 'Volver a Noticias y eventos' },
  untranslated:
    'Este evento todavía no está disponible en español; su título y descripción se muestran en inglés.',
  rsvpHeading: 'Confirme su asistencia',
  rsvpIntro: (title: string) =>
    `Díganos que vendrá a ${title}. Le enviaremos la confirmación por correo electrónico con una invitación para su calendario.`,
  rsvp: {
    formLabel: 'Confirmar asistencia',
    name: 'Nombre',
    email: 'Correo electrónico',
    phone: 'Número de celular (opcional)',
    guests: 'Invitados que traerá',
    submit: 'Confirmar asistencia',
    submitting: 'Enviando...',
    offline: 'No pudimos enviar su confirmación. Revise su conexión e inténtelo de nuevo.',
    full: 'Este evento está lleno. Aún puede confirmar su asistencia para entrar en la lista de espera; le escribiremos si se libera un lugar.',
    seatsLeft: 'Quedan {0} de {1} lugares.',
    goingHeading: '¡Asistirá!',
    waitlistedHeading: 'Está en la lista de espera',
    waitlistPosition: 'Su lugar en la lista de espera: {0}',
    going:
      'Le enviamos la confirmación por correo electrónico, con un enlace para cancelar si cambian sus planes.',
    waitlisted:
      'Este evento está lleno, así que está en la lista de espera. Le escribiremos si se libera un lugar.',
    notTaking: 'Este evento no acepta confirmaciones de asistencia en este sitio.',
    fields: {
      name: 'Escriba su nombre',
      email: 'Escriba un correo electrónico válido',
      phone: 'Escriba un número de teléfono válido',
      phoneForSms: 'Escriba un número de celular para el recordatorio por mensaje de texto',
      guests: 'Elija el número de invitados',
    },
  },
} satisfies Translation<typeof en.eventPageCopy>;

export const rsvpCancelCopy = {
  title: 'Cancelar su asistencia',
  description:
    'Cancele su confirmación de asistencia a un evento de la campaña para que otra persona pueda venir.',
  heading: 'Cancelar su asistencia',
  yourRsvp: 'Su confirmación de asistencia a',
  intro:
    '¿No puede venir? Al cancelar, su lugar queda libre para la siguiente persona en la lista de espera.',
  formLabel: 'Cancelar su asistencia',
  submit: 'Cancelar mi asistencia',
  submitting: 'Cancelando...',
  cancelledHeading: 'Asistencia cancelada',
  cancelled: 'Su confirmación de asistencia quedó cancelada. Gracias por avisarnos.',
  alreadyCancelled: 'Esta confirmación de asistencia ya estaba cancelada.',
  badLink: 'Este enlace de cancelación no es válido. Use el enlace del correo electrónico de confirmación.',
  failed: 'No pudimos cancelar su asistencia en este momento. Inténtelo de nuevo.',
  unavailable: 'Esta página no se puede cargar en este momento. Inténtelo de nuevo en un minuto.',
  eventLink: 'Detalles del evento',
  allEvents: { label: 'Ver todos los eventos' },
} satisfies Translation<typeof en.rsvpCancelCopy>;
