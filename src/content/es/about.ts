import type * as en from '../about.ts';
import { electionFacts } from '../campaign.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/about.ts (docs/decisions/166-spanish.md). Biography details are placeholders. */

const name = IDENTITY.candidateName;
const first = IDENTITY.candidateFirstName;
const years = electionFacts.yearsFinancialExperience;

export const aboutIntro = {
  badge: 'Candidato reformista • Un solo mandato',
  heading: `Sobre ${name}`,
  lead: `Un contador, no un político: ${years} años siguiendo el rastro del dinero, y ahora en campaña para poner en orden las cuentas de Nueva Orleans y recuperar la confianza en el Ayuntamiento.`,
} satisfies Translation<typeof en.aboutIntro>;

export const biography = [
  `${name} ha dedicado ${years} años a las finanzas: auditando empresas y organizaciones sin fines de lucro, desenredando presupuestos públicos y ayudando a familias y pequeños negocios a llevar sus cuentas en orden. Esa carrera se basa en un hábito: revisar las cifras y luego decirle a la gente la verdad sobre ellas.`,
  `Residente de Nueva Orleans desde hace muchos años, ${first} ha visto a la ciudad luchar con calles rotas, un drenaje poco confiable, errores en las facturas y presupuestos que los residentes no pueden seguir. ${first} se postula a la alcaldía para llevar la disciplina de un auditor al gobierno de la ciudad y retirarse después de un solo mandato con el trabajo hecho.`,
] satisfies Translation<typeof en.biography>;

export const educationAndExperience = {
  heading: 'Formación y experiencia',
  items: [
    'Contador público certificado (CPA)',
    'Licenciatura en Contabilidad',
    `${years} años en auditoría, finanzas públicas y contabilidad de pequeños negocios`,
    'Tesorero voluntario de asociaciones de vecinos y organizaciones comunitarias',
    'Maestro de educación financiera para quienes compran su primera vivienda y dueños de pequeños negocios',
  ],
} satisfies Translation<typeof en.educationAndExperience>;

export const coreValues = [
  {
    title: 'Transparencia',
    description: 'Cada dólar que gasta la ciudad debe estar a la vista de quienes lo pagan.',
  },
  {
    title: 'Rendición de cuentas',
    description: 'Fijar metas medibles, publicar los resultados y asumir tanto los fallos como los logros.',
  },
  {
    title: 'Inclusión',
    description: 'Cada barrio y cada voz tienen un lugar en la mesa y una parte justa.',
  },
  {
    title: 'Servicio',
    description: 'Un cargo público es un trabajo al servicio de los residentes, no una carrera que proteger.',
  },
] satisfies Translation<typeof en.coreValues>;

export const oneTermPledge = {
  heading: 'El compromiso de un solo mandato',
  paragraphs: [
    `${name} se compromete a servir un solo mandato de cuatro años como alcalde.`,
    'Sin una campaña de reelección que financiar o proteger, cada decisión se puede tomar por sus méritos: lo que es correcto para la ciudad, no lo que es seguro para la próxima elección. Cuatro años bastan para poner en orden las cuentas, dejar la ciudad sobre bases sólidas y entregarla a quien venga en mejor estado.',
  ],
} satisfies Translation<typeof en.oneTermPledge>;

export const whyDifferent = {
  heading: `Por qué ${name} es diferente`,
  points: [
    {
      title: 'Una mirada desde afuera',
      description: `No es un político de carrera: ${first} aporta toda una vida de experiencia financiera en el sector privado y sin fines de lucro, y no le debe favores a nadie en el Ayuntamiento.`,
    },
    {
      title: 'Enfoque en la reforma',
      description:
        'Chequera abierta, auditorías independientes y cifras de desempeño publicadas: reformas que hacen funcionar al gobierno y que siguen funcionando cuando termine este mandato.',
    },
    {
      title: 'Constructor de alianzas',
      description:
        'Décadas de trabajo con negocios, organizaciones sin fines de lucro, iglesias y grupos de vecinos para encontrar puntos en común y lograr resultados.',
    },
  ],
} satisfies Translation<typeof en.whyDifferent>;

export const vision = {
  heading: 'Una visión para Nueva Orleans',
  paragraphs: [
    'Una Nueva Orleans donde las calles drenen, la luz no se vaya y la factura del agua sea correcta; donde los residentes puedan ver cómo se gasta su dinero, y donde cada barrio comparta la prosperidad de la ciudad.',
    'Una ciudad que protege su cultura y a su gente, que recibe a los visitantes sin expulsar a los residentes por los precios, y que vuelve a confiar en su gobierno porque ese gobierno se lo ha ganado.',
  ],
} satisfies Translation<typeof en.vision>;

export const aboutAfterElection = {
  ran: {
    lead: `Un contador, no un político: ${years} años siguiendo el rastro del dinero, y candidato a la alcaldía en las elecciones de Nueva Orleans para poner en orden las cuentas de la ciudad y recuperar la confianza en el Ayuntamiento.`,
    paragraph: `Residente de Nueva Orleans desde hace muchos años, ${first} ha visto a la ciudad luchar con calles rotas, un drenaje poco confiable, errores en las facturas y presupuestos que los residentes no pueden seguir. ${first} se postuló a la alcaldía para llevar la disciplina de un auditor al gobierno de la ciudad, con el compromiso de servir un solo mandato y retirarse con el trabajo hecho.`,
  },
  elected: {
    lead: `Un contador, no un político: ${years} años siguiendo el rastro del dinero, y ahora electo para poner en orden las cuentas de Nueva Orleans y recuperar la confianza en el Ayuntamiento.`,
    paragraph: `Residente de Nueva Orleans desde hace muchos años, ${first} ha visto a la ciudad luchar con calles rotas, un drenaje poco confiable, errores en las facturas y presupuestos que los residentes no pueden seguir. ${first} fue electo alcalde para llevar la disciplina de un auditor al gobierno de la ciudad, y se retirará después de un solo mandato con el trabajo hecho.`,
  },
} satisfies Translation<typeof en.aboutAfterElection>;
