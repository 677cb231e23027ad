import type * as en from '../legal.ts';
import { termsChangeNoticeDays, termsOfUse as englishTerms } from '../legal.ts';
import { IDENTITY } from '../identity.ts';
import { longDate } from '../../lib/format.ts';
import type { Translation } from '../translation.ts';
import { textSignup } from './home.ts';

/*
 * Spanish of the Terms of Use and the Privacy Policy (docs/decisions/166-spanish.md). A TRANSLATION
 * FOR COUNSEL TO REVIEW: the pages say so (src/content/es/ui.ts `legalCopy`),
 * and the English text is the one that governs.
 */

const committee = IDENTITY.committeeName;
const site = `el sitio web de ${committee}`;
const lastUpdated = { label: longDate(englishTerms.lastUpdated.iso, 'es') };

export const termsOfUse = {
  title: 'Términos de Uso',
  lastUpdated,
  intro: `Estos Términos de Uso rigen el uso de ${site}, operado por ${committee} ("la Campaña", "nosotros"). Léalos con atención.`,
  sections: [
    {
      heading: 'Aceptación de los términos',
      paragraphs: [
        'Al visitar o usar este sitio web, inscribirse para recibir novedades, ofrecerse como voluntario o hacer una contribución, usted acepta estos Términos de Uso y nuestra Política de Privacidad. Si no está de acuerdo, no use el sitio web.',
      ],
    },
    {
      heading: 'Propósitos del sitio web',
      paragraphs: [
        `Este sitio web ofrece información sobre la campaña de ${IDENTITY.candidateName} a la alcaldía de Nueva Orleans y permite a los visitantes leer noticias y eventos, ofrecerse como voluntarios, contribuir, comunicarse con la Campaña e inscribirse para recibir novedades.`,
      ],
    },
    {
      heading: 'Responsabilidades del usuario',
      paragraphs: ['Al usar este sitio web, usted se compromete a:'],
      list: [
        'dar información verdadera, exacta y actual en cualquier formulario que envíe;',
        'enviar solo sus propios datos de contacto, o datos que esté autorizado a dar;',
        'cumplir todas las leyes aplicables, incluidas las de financiamiento de campañas, y',
        'mantener en reserva las credenciales de cualquier cuenta del personal.',
      ],
    },
    {
      heading: 'Actividades prohibidas',
      paragraphs: ['Usted no puede:'],
      list: [
        'usar el sitio web con fines ilegales, fraudulentos o de acoso;',
        'hacerse pasar por otra persona ni falsear su relación con cualquier persona u organización;',
        'intentar obtener acceso no autorizado al sitio web, sus servidores o las cuentas del personal;',
        'interferir con el sitio web, incluido el envío de código malicioso o tráfico automatizado, ni',
        'extraer, copiar o volver a publicar contenido del sitio de un modo que sugiera que la Campaña le respalda.',
      ],
    },
    {
      heading: 'Comunicaciones políticas',
      paragraphs: [
        `El contenido de este sitio web es comunicación política pagada por ${committee}. Las posiciones de la Campaña son opiniones y planes, no garantías de ninguna acción del gobierno.`,
      ],
    },
    {
      heading: 'Consentimiento para el programa de mensajes móviles',
      paragraphs: [
        `Al inscribirse mediante el formulario "${textSignup.heading}" y marcar la casilla de consentimiento, usted acepta recibir mensajes de texto recurrentes de ${committee}, incluida información sobre encuestas y votación y anuncios de servicio público. El consentimiento no es condición para ninguna compra ni contribución.`,
        'Los mensajes se pueden enviar con un sistema de marcación telefónica automática (marcador automático). La frecuencia de los mensajes varía. Pueden aplicarse tarifas de mensajes y datos. Los operadores no son responsables de los mensajes demorados o no entregados.',
        'Responda ALTO (o STOP) en cualquier momento para cancelar la suscripción; recibirá un último mensaje que confirma la cancelación. Responda AYUDA (o HELP) para obtener ayuda.',
        'Los números de teléfono móvil y el consentimiento para mensajes de texto nunca se venden ni se comparten con terceros o afiliados para sus fines de mercadeo.',
      ],
    },
    {
      heading: 'Condiciones de las donaciones',
      paragraphs: [
        'Un proveedor externo procesa las contribuciones, que están sujetas a sus condiciones. Las contribuciones no son deducibles de impuestos. Al contribuir, usted certifica que es ciudadano de los EE. UU. o residente permanente legal, que la contribución proviene de sus propios fondos y que no se la reembolsarán.',
        'La Campaña debe informar los datos de los contribuyentes según lo exige la ley de financiamiento de campañas de Luisiana. Se reembolsarán las contribuciones que superen los límites legales o que provengan de fuentes prohibidas.',
      ],
    },
    {
      heading: 'Propiedad intelectual',
      paragraphs: [
        'Los textos, logotipos, fotografías, videos y el diseño del sitio web pertenecen a la Campaña o a sus licenciantes. Puede compartir enlaces y citar extractos breves con fines no comerciales y que no induzcan a error; cualquier otro uso requiere el permiso escrito de la Campaña.',
      ],
    },
    {
      heading: 'Enlaces de terceros',
      paragraphs: [
        'El sitio web enlaza e inserta servicios de terceros, como el proveedor de donaciones, el alojamiento de videos y las redes sociales. La Campaña no controla ni es responsable de su contenido, sus condiciones ni sus prácticas de privacidad.',
      ],
    },
    {
      heading: 'Exención de responsabilidad',
      paragraphs: [
        'El sitio web se ofrece "tal cual" y "según disponibilidad", sin garantías de ningún tipo. La Campaña no garantiza que funcione sin interrupciones ni errores. En la medida máxima que permite la ley, la Campaña no es responsable de daños indirectos o consecuentes derivados del uso del sitio web.',
      ],
    },
    {
      heading: 'Privacidad',
      paragraphs: [
        'El uso del sitio web también se rige por nuestra Política de Privacidad, que explica qué información recopilamos y cómo la usamos.',
      ],
    },
    {
      heading: 'Terminación',
      paragraphs: [
        'La Campaña puede suspender o terminar su acceso al sitio web o a sus programas en cualquier momento y sin aviso si usted incumple estos términos.',
      ],
    },
    {
      heading: 'Ley aplicable',
      paragraphs: [
        'Estos términos se rigen por las leyes del estado de Luisiana, sin considerar sus normas sobre conflictos de leyes. Cualquier disputa se resolverá en los tribunales estatales o federales ubicados en Luisiana.',
      ],
    },
    {
      heading: 'Cambios en los términos',
      paragraphs: [
        `La Campaña puede actualizar estos términos de vez en cuando. Ante cambios importantes, intentaremos avisar con al menos ${termsChangeNoticeDays} días de anticipación en esta página o por otro medio razonable. Si sigue usando el sitio web después de que los cambios entren en vigor, usted los acepta.`,
      ],
    },
    {
      heading: 'Información de contacto',
      paragraphs: [
        `Puede enviar sus preguntas sobre estos términos a ${IDENTITY.emails.general} o llamar al ${IDENTITY.phone.display}.`,
      ],
    },
    {
      heading: 'Reconocimiento',
      paragraphs: [
        'Al usar este sitio web, usted reconoce que leyó estos Términos de Uso, que los entiende y que acepta cumplirlos.',
      ],
    },
  ],
} satisfies Translation<typeof en.termsOfUse>;

export const privacyPolicy = {
  title: 'Política de Privacidad',
  lastUpdated,
  intro: `Esta Política de Privacidad explica qué información recopila ${committee} ("la Campaña", "nosotros") a través de este sitio web y de su programa de mensajes de texto, cómo la usamos y qué opciones tiene usted.`,
  sections: [
    {
      heading: 'Información que recopilamos',
      paragraphs: ['Recopilamos solo lo que usted nos da y lo necesario para funcionar:'],
      list: [
        'Inscripción a mensajes de texto: nombre, número de celular, correo electrónico (opcional) y un registro de su consentimiento: el texto que aceptó, la página, la fecha y la hora, y su dirección IP y tipo de navegador.',
        'Inscripción de voluntarios: nombre, correo electrónico, teléfono, dirección postal y las formas en que le gustaría ayudar.',
        'Formulario de contacto: nombre, correo electrónico, teléfono (opcional), asunto y su mensaje.',
        'Donaciones: las gestiona un proveedor externo (vea "Donaciones" más abajo).',
        'Datos técnicos: páginas visitadas, tipo de navegador y ubicación aproximada según su dirección IP, recopilados por nuestros proveedores de alojamiento y de análisis.',
      ],
    },
    {
      heading: 'Cómo usamos la información',
      paragraphs: ['Usamos su información para:'],
      list: [
        'enviarle las novedades de la campaña y los mensajes de texto que pidió;',
        'coordinar a los voluntarios y responder sus mensajes;',
        'cumplir las leyes de financiamiento de campañas, electorales y de telecomunicaciones;',
        'proteger el sitio web contra el spam, el fraude y el abuso, y',
        'entender qué páginas son útiles para mejorar el sitio web.',
      ],
    },
    {
      heading: 'Mensajes de texto',
      paragraphs: [
        'Solo enviamos mensajes de texto a quienes se inscriben. Guardamos un registro de cada inscripción y cancelación para respetar su decisión. Responda ALTO para dejar de recibir mensajes y AYUDA para obtener ayuda; pueden aplicarse tarifas de mensajes y datos.',
        'Nunca vendemos ni compartimos números de teléfono móvil ni el consentimiento para mensajes de texto con terceros o afiliados para sus fines de mercadeo. Nuestro proveedor de mensajes de texto procesa los números solo para entregar nuestros mensajes.',
      ],
    },
    {
      heading: 'Donaciones',
      paragraphs: [
        'Las contribuciones se hacen mediante un proveedor externo insertado en la página de Donar. Los datos de su tarjeta van directamente a ese proveedor; la Campaña nunca los recibe ni los guarda. El proveedor nos da los datos del contribuyente que la ley de financiamiento de campañas nos exige recopilar e informar, como nombre, dirección, empleador y ocupación, y estos pueden hacerse públicos en nuestros informes financieros.',
      ],
    },
    {
      heading: 'Análisis y cookies',
      paragraphs: [
        'Registramos las visitas a las páginas (la dirección de la página y la hora) con un servicio de análisis web para entender cómo se usa el sitio. Las páginas públicas no instalan cookies de publicidad ni de seguimiento. El personal que inicia sesión en el panel recibe una cookie de sesión necesaria para mantener su sesión abierta.',
        'Los videos insertados y el formulario de donación los ofrecen terceros, que pueden instalar sus propias cookies según sus propias políticas cuando usted los usa.',
      ],
    },
    {
      heading: 'Cómo compartimos la información',
      paragraphs: [
        'No vendemos su información personal. Solo la compartimos con proveedores de servicios que nos ayudan a llevar la campaña (alojamiento web, correo electrónico, mensajes de texto, protección contra spam y procesamiento de donaciones), con la obligación de protegerla; con las autoridades cuando la ley lo exige, incluidos los informes de financiamiento de campañas, y con su consentimiento.',
      ],
    },
    {
      heading: 'Conservación y seguridad',
      paragraphs: [
        'Conservamos la información mientras la campaña la necesite y mientras la ley exija guardar los registros. Los registros de consentimiento se guardan para demostrar sus decisiones. Protegemos los datos con controles de acceso, conexiones cifradas y acceso limitado del personal; ningún sistema es perfectamente seguro, así que no envíe información delicada por el formulario de contacto.',
      ],
    },
    {
      heading: 'Sus opciones',
      paragraphs: [
        `Puede dejar de recibir mensajes de texto en cualquier momento respondiendo ALTO. Para ver, corregir o borrar la información que tenemos sobre usted, escriba a ${IDENTITY.emails.privacy}. Algunos registros, como los de contribuciones y consentimiento, se deben conservar por ley.`,
      ],
    },
    {
      heading: 'Privacidad de los niños',
      paragraphs: [
        'El sitio web no está dirigido a menores de 13 años y no recopilamos su información a sabiendas. Si cree que un menor nos dio información, comuníquese con nosotros y la borraremos.',
      ],
    },
    {
      heading: 'Cambios en esta política',
      paragraphs: [
        'Podemos actualizar esta política de vez en cuando. La fecha en la parte superior indica cuándo cambió por última vez.',
      ],
    },
    {
      heading: 'Contáctenos',
      paragraphs: [`Preguntas sobre esta política: ${IDENTITY.emails.privacy} o ${IDENTITY.phone.display}.`],
    },
  ],
} satisfies Translation<typeof en.privacyPolicy>;
