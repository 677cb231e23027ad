import type { Lang } from '../lib/lang.ts';

/*
 * Copy of a supporter's own page, "My campaign" (docs/decisions/182-supporter-page.md): the sign-in link's answer
 * and email, and the consent wording the page records when texts are resumed. Both languages in one typed shape.
 */
export interface SupporterCopy {
  /** The one answer to a sign-in link request, whether or not the address is known. */
  linkSent: string;
  emailSubject: string;
  emailBody: (link: string) => string;
  /** The consent box's wording, recorded with a resumed channel. */
  resumeTextsConsent: string;
  /** The confirmation box of "delete my data", and what it deletes. */
  forgetConfirm: string;
  forgetSummary: string;
  invalidLink: string;
  /** The one answer to a code request, whether or not the number is known. */
  codeSent: string;
  codeText: (code: string) => string;
  phoneInvalid: string;
  invalidCode: string;
  signInFirst: string;
  /** "Switch slot" refusals: the same slot, a slot not offered, a full slot (its waitlist offered). */
  switchSame: string;
  switchNoSlot: string;
  switchFull: string;
  consentRequired: string;
  forgetConfirmRequired: string;
  /** The page's own words. */
  page: {
    title: string;
    description: string;
    heading: string;
    signInIntro: string;
    emailLabel: string;
    sendLink: string;
    codeIntro: string;
    phoneLabel: string;
    sendCode: string;
    codeLabel: string;
    signInWithCode: string;
    signInHeading: string;
    signInButton: string;
    rsvpsHeading: string;
    noRsvps: string;
    shiftsHeading: string;
    noShifts: string;
    shiftGoing: string;
    /** {0}: the place on the waitlist. */
    shiftWaitlisted: string;
    cancelShift: string;
    switchLabel: string;
    /** {0}: the slot's date, time and place. */
    switchFullOption: string;
    switchButton: string;
    cancelRsvp: string;
    planHeading: string;
    noPlan: string;
    openPlan: string;
    stopPlanReminders: string;
    remindersStopped: string;
    channelsHeading: string;
    email: string;
    texts: string;
    on: string;
    off: string;
    stop: string;
    resumeTexts: string;
    inviteHeading: string;
    inviteIntro: string;
    inviteQrAlt: string;
    inviteCounts: string;
    inviteDonations: string;
    leaderboardHeading: string;
    leaderboardIntro: string;
    /** {0}: the place, {1}: the count. */
    leaderboardMine: string;
    leaderboardNotYet: string;
    /** {0}: the place, {1}: the count. */
    leaderboardRow: string;
    revokeInvite: string;
    heldHeading: string;
    download: string;
    forgetHeading: string;
    forgetButton: string;
    signOut: string;
    done: Record<string, string>;
  };
}

export const SUPPORTER_COPY: Record<Lang, SupporterCopy> = {
  en: {
    linkSent:
      'If we have that email address, a sign-in link is on its way. It works once, for 15 minutes. Check your inbox.',
    emailSubject: 'Your sign-in link for My campaign',
    emailBody: (link) =>
      [
        'Someone (hopefully you) asked to see your page on our campaign site.',
        '',
        `Open this link and press "Sign in": ${link}`,
        '',
        'It works once, for 15 minutes. If you did not ask for it, ignore this email: nothing changes, and nobody else can see your page. Do not forward it: whoever opens it first signs in as you.',
      ].join('\n'),
    resumeTextsConsent:
      'I agree to receive recurring campaign text messages at the number(s) on file. Msg & data rates may apply. Reply STOP to cancel, HELP for help.',
    forgetConfirm: 'Yes, delete everything the campaign holds about me.',
    forgetSummary:
      'This deletes your sign-ups, RSVPs, plan to vote, text and email list entries, messages you sent us and your invite link. We keep only a scrambled fingerprint of your email and phone so an old list cannot add you back. Donations stay in the legal ledger without your name. This cannot be undone.',
    invalidLink: 'This sign-in link is invalid, used or expired. Please ask for a new one.',
    codeSent:
      'If we have that phone number, a 6-digit code is on its way by text. It works once, for 10 minutes.',
    codeText: (code) => `Your code for My campaign: ${code}. It works once, for 10 minutes. Never share it.`,
    phoneInvalid: 'Please enter a valid phone number',
    invalidCode: 'This code is wrong, used or expired. Please ask for a new one.',
    signInFirst: 'Please sign in with a link sent to your email.',
    switchSame: 'You already have that shift.',
    switchNoSlot: 'That shift is not open to move to.',
    switchFull: 'That shift is full. You can join its waitlist and keep the shift you have.',
    consentRequired: 'Please check the box to agree to receive texts.',
    forgetConfirmRequired: 'Please check the box to confirm.',
    page: {
      title: 'My campaign',
      description: 'Your RSVPs, your plan to vote, your messages and your invite link.',
      heading: 'My campaign',
      signInIntro: 'Enter your email and we will send you a link to your page.',
      emailLabel: 'Email',
      sendLink: 'Send me a link',
      codeIntro: 'Or enter your mobile number and we will text you a code.',
      phoneLabel: 'Mobile number',
      sendCode: 'Text me a code',
      codeLabel: '6-digit code',
      signInWithCode: 'Sign in with the code',
      signInHeading: 'Sign in to My campaign',
      signInButton: 'Sign in',
      rsvpsHeading: 'My RSVPs',
      noRsvps: 'No RSVPs yet.',
      shiftsHeading: 'My shifts',
      noShifts: 'No upcoming shifts.',
      shiftGoing: "You're on this shift",
      shiftWaitlisted: 'On the waitlist (number {0})',
      cancelShift: 'Cancel this shift',
      switchLabel: 'Move to another shift',
      switchFullOption: '{0} (full: join the waitlist)',
      switchButton: 'Switch shift',
      cancelRsvp: 'Cancel this RSVP',
      planHeading: 'My plan to vote',
      noPlan: 'No plan to vote yet.',
      openPlan: 'Open my plan',
      stopPlanReminders: 'Stop my plan reminders',
      remindersStopped: 'Reminders stopped',
      channelsHeading: 'Texts and emails',
      email: 'Emails',
      texts: 'Texts',
      on: 'On',
      off: 'Off',
      stop: 'Stop',
      resumeTexts: 'Resume texts',
      inviteHeading: 'My invite link',
      inviteIntro: 'Share this link. We count who signs up through it, never who they are.',
      inviteQrAlt: 'QR code of my invite link',
      inviteCounts: 'Sign-ups through my link',
      inviteDonations: 'Donors through my link',
      leaderboardHeading: 'Top recruiters',
      leaderboardIntro: 'Sign-ups through the most-shared invite links. No names: only counts.',
      leaderboardMine: 'You are number {0}, with {1} sign-ups.',
      leaderboardNotYet: 'Nobody has signed up through your link yet.',
      leaderboardRow: 'Number {0}: {1} sign-ups',
      revokeInvite: 'Turn off this link and make a new one',
      heldHeading: 'What the campaign holds about me',
      download: 'Download my data (JSON)',
      forgetHeading: 'Delete my data',
      forgetButton: 'Delete my data',
      signOut: 'Sign out',
      done: {
        sent: 'If we have that email address, a sign-in link is on its way.',
        'code-sent': 'If we have that phone number, a code is on its way by text.',
        'signed-in': 'You are signed in.',
        'signed-out': 'You are signed out.',
        'rsvp-cancelled': 'Your RSVP is cancelled.',
        'shift-cancelled': 'Your shift is cancelled.',
        'shift-switched': 'Your shift is switched.',
        'shift-waitlisted': 'You are on the waitlist of that shift and keep the one you have.',
        'plan-stopped': 'Your plan reminders are stopped.',
        'email-stopped': 'Emails are stopped.',
        'text-stopped': 'Texts are stopped.',
        'texts-resumed': 'Texts are back on.',
        'invite-revoked': 'Your old link is off; here is a new one.',
        forgotten: 'Your data is deleted. Thank you for your support.',
      },
    },
  },
  es: {
    linkSent:
      'Si tenemos esa dirección de correo, le enviamos un enlace para entrar. Funciona una vez, durante 15 minutos. Revise su bandeja de entrada.',
    emailSubject: 'Su enlace para entrar a Mi campaña',
    emailBody: (link) =>
      [
        'Alguien (ojalá usted) pidió ver su página en el sitio de nuestra campaña.',
        '',
        `Abra este enlace y pulse "Entrar": ${link}`,
        '',
        'Funciona una vez, durante 15 minutos. Si no lo pidió, ignore este correo: nada cambia y nadie más puede ver su página. No lo reenvíe: quien lo abra primero entra como usted.',
      ].join('\n'),
    resumeTextsConsent:
      'Acepto recibir mensajes de texto recurrentes de la campaña en los números registrados. Pueden aplicarse tarifas de mensajes y datos. Responda STOP para cancelar, HELP para ayuda.',
    forgetConfirm: 'Sí, borren todo lo que la campaña tiene sobre mí.',
    forgetSummary:
      'Esto borra sus inscripciones, confirmaciones de asistencia, plan para votar, sus registros en las listas de textos y correos, los mensajes que nos envió y su enlace de invitación. Solo guardamos una huella cifrada de su correo y teléfono para que una lista antigua no lo vuelva a agregar. Las donaciones quedan en el registro legal sin su nombre. No se puede deshacer.',
    invalidLink: 'Este enlace para entrar no es válido, ya se usó o venció. Pida uno nuevo.',
    codeSent:
      'Si tenemos ese número de teléfono, le enviamos por texto un código de 6 dígitos. Funciona una vez, durante 10 minutos.',
    codeText: (code) =>
      `Su código para Mi campaña: ${code}. Funciona una vez, durante 10 minutos. No lo comparta.`,
    phoneInvalid: 'Escriba un número de teléfono válido',
    invalidCode: 'Este código es incorrecto, ya se usó o venció. Pida uno nuevo.',
    signInFirst: 'Entre con un enlace enviado a su correo.',
    switchSame: 'Usted ya tiene ese turno.',
    switchNoSlot: 'Ese turno no está disponible para cambiarse.',
    switchFull: 'Ese turno está lleno. Puede unirse a su lista de espera y conservar el turno que tiene.',
    consentRequired: 'Marque la casilla para aceptar recibir textos.',
    forgetConfirmRequired: 'Marque la casilla para confirmar.',
    page: {
      title: 'Mi campaña',
      description: 'Sus confirmaciones, su plan para votar, sus mensajes y su enlace de invitación.',
      heading: 'Mi campaña',
      signInIntro: 'Escriba su correo y le enviaremos un enlace a su página.',
      emailLabel: 'Correo electrónico',
      sendLink: 'Envíenme un enlace',
      codeIntro: 'O escriba su número de celular y le enviaremos un código por texto.',
      phoneLabel: 'Número de celular',
      sendCode: 'Envíenme un código',
      codeLabel: 'Código de 6 dígitos',
      signInWithCode: 'Entrar con el código',
      signInHeading: 'Entrar a Mi campaña',
      signInButton: 'Entrar',
      rsvpsHeading: 'Mis confirmaciones de asistencia',
      noRsvps: 'Todavía no tiene confirmaciones.',
      shiftsHeading: 'Mis turnos',
      noShifts: 'No tiene turnos próximos.',
      shiftGoing: 'Está en este turno',
      shiftWaitlisted: 'En la lista de espera (número {0})',
      cancelShift: 'Cancelar este turno',
      switchLabel: 'Cambiar a otro turno',
      switchFullOption: '{0} (lleno: unirse a la lista de espera)',
      switchButton: 'Cambiar turno',
      cancelRsvp: 'Cancelar esta confirmación',
      planHeading: 'Mi plan para votar',
      noPlan: 'Todavía no tiene un plan para votar.',
      openPlan: 'Abrir mi plan',
      stopPlanReminders: 'Detener los recordatorios de mi plan',
      remindersStopped: 'Recordatorios detenidos',
      channelsHeading: 'Textos y correos',
      email: 'Correos',
      texts: 'Textos',
      on: 'Activados',
      off: 'Desactivados',
      stop: 'Detener',
      resumeTexts: 'Reanudar los textos',
      inviteHeading: 'Mi enlace de invitación',
      inviteIntro: 'Comparta este enlace. Contamos quién se inscribe con él, nunca quiénes son.',
      inviteQrAlt: 'Código QR de mi enlace de invitación',
      inviteCounts: 'Inscripciones con mi enlace',
      inviteDonations: 'Donantes con mi enlace',
      leaderboardHeading: 'Quienes más invitan',
      leaderboardIntro:
        'Inscripciones con los enlaces de invitación más compartidos. Sin nombres: solo cifras.',
      leaderboardMine: 'Usted es el número {0}, con {1} inscripciones.',
      leaderboardNotYet: 'Todavía nadie se ha inscrito con su enlace.',
      leaderboardRow: 'Número {0}: {1} inscripciones',
      revokeInvite: 'Desactivar este enlace y crear uno nuevo',
      heldHeading: 'Lo que la campaña tiene sobre mí',
      download: 'Descargar mis datos (JSON)',
      forgetHeading: 'Borrar mis datos',
      forgetButton: 'Borrar mis datos',
      signOut: 'Salir',
      done: {
        sent: 'Si tenemos esa dirección de correo, le enviamos un enlace para entrar.',
        'code-sent': 'Si tenemos ese número de teléfono, le enviamos un código por texto.',
        'signed-in': 'Ya entró.',
        'signed-out': 'Ya salió.',
        'rsvp-cancelled': 'Su confirmación está cancelada.',
        'shift-cancelled': 'Su turno está cancelado.',
        'shift-switched': 'Su turno fue cambiado.',
        'shift-waitlisted': 'Está en la lista de espera de ese turno y conserva el que tiene.',
        'plan-stopped': 'Los recordatorios de su plan están detenidos.',
        'email-stopped': 'Los correos están detenidos.',
        'text-stopped': 'Los textos están detenidos.',
        'texts-resumed': 'Los textos están activados de nuevo.',
        'invite-revoked': 'Su enlace anterior está desactivado; aquí tiene uno nuevo.',
        forgotten: 'Sus datos están borrados. Gracias por su apoyo.',
      },
    },
  },
};
