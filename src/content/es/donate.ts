import type * as en from '../donate.ts';
import { contributionRules as rules } from '../donate.ts';
import { IDENTITY } from '../identity.ts';
import { formatUsd } from '../../lib/format.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/donate.ts (docs/decisions/166-spanish.md): the amounts come from the English rules (one source). */

export const donateIntro = {
  heading: 'Donar',
  lead: 'Cada contribución financia una campaña impulsada por la gente para sanear las finanzas de Nueva Orleans y recuperar la confianza en el Ayuntamiento.',
} satisfies Translation<typeof en.donateIntro>;

export const campaignBudget = { label: '$100K-$200K' } satisfies Translation<typeof en.campaignBudget>;

export const spendingBreakdown = [
  {
    label: 'Contacto con los votantes',
    description:
      'Materiales para visitas, llamadas y mensajes de texto, y llevar a los votantes a las urnas.',
  },
  {
    label: 'Medios digitales',
    description: 'Publicidad en línea, producción de video y el sitio web de la campaña.',
  },
  {
    label: 'Operaciones',
    description: 'Sede, cumplimiento legal, contabilidad e informes de financiamiento de campaña.',
  },
] satisfies Translation<typeof en.spendingBreakdown>;

const usd = (i: number) => formatUsd(rules[i]?.amount ?? 0);

export const contributionRules = [
  { label: 'Personas', detail: `Hasta ${usd(0)} por ciclo electoral.` },
  { label: 'Comités políticos grandes', detail: `Hasta ${usd(1)} por ciclo electoral.` },
  {
    label: 'Empresas y otras organizaciones',
    detail: `Hasta ${usd(2)} por ciclo electoral, solo con cheque.`,
  },
  { label: 'Efectivo', detail: `No más de ${usd(3)} en efectivo por contribuyente al año.` },
  {
    label: 'Informes detallados',
    detail: `Las contribuciones de más de ${usd(4)} se detallan en los informes de financiamiento de campaña.`,
  },
  {
    label: 'Contribuciones de último momento',
    detail: `Las contribuciones de ${usd(5)} o más recibidas en los 20 días antes de una elección se informan en 48 horas.`,
  },
  { label: 'Empleador y ocupación', detail: `Obligatorios para contribuciones de más de ${usd(6)}.` },
  {
    label: 'Ciudadanos extranjeros',
    detail: 'Se prohíben las contribuciones de ciudadanos extranjeros.',
  },
] satisfies Translation<typeof en.contributionRules>;

export const donorCertification =
  'Al contribuir, usted certifica que es ciudadano de los EE. UU. o residente permanente legal, que la contribución proviene de sus propios fondos y que ninguna persona u organización se la reembolsará.';

export const donateDisclaimer = `Las contribuciones a ${IDENTITY.committeeName} no son deducibles de impuestos federales ni estatales. Un proveedor externo procesa las donaciones de forma segura; la campaña no recibe ni guarda los datos de su tarjeta.`;

export const donateAfterElection = {
  awaiting:
    'Las contribuciones ahora ayudan a la campaña a terminar su trabajo y pagar sus cuentas pendientes. Gracias por apoyar una Nueva Orleans mejor administrada.',
  won: 'Las contribuciones ahora ayudan a la campaña a cerrar sus cuentas y preparar una transición abierta y responsable en el Ayuntamiento.',
  lost: 'Las contribuciones ahora ayudan a la campaña a pagar sus cuentas pendientes y cerrar sus libros sin deudas.',
} satisfies Translation<typeof en.donateAfterElection>;
