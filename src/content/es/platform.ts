import type * as en from '../platform.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/platform.ts (docs/decisions/166-spanish.md): the ten priorities, in the same order. */

export const platformIntro = {
  badge: 'Las propuestas',
  heading: 'Diez prioridades para Nueva Orleans',
  lead: `Una agenda práctica de un solo mandato de ${IDENTITY.candidateName}: arreglar lo que está roto, abrir las cuentas y medir cada promesa.`,
} satisfies Translation<typeof en.platformIntro>;

export const priorities = [
  {
    title: 'Seguridad pública y buen gobierno',
    subtitle: 'Barrios seguros y un ayuntamiento que rinde cuentas a los residentes',
    bullets: [
      'Reducir los tiempos de respuesta del 911 y de emergencias, con cifras publicadas cada semana',
      'Ampliar la policía comunitaria y financiar programas probados de prevención de la violencia',
      'Cubrir las plazas vacantes de seguridad pública con salarios competitivos y capacitación',
      'Nombrar a un inspector independiente para revisar los contratos y las horas extra de la ciudad',
    ],
  },
  {
    title: 'Infraestructura y medio ambiente',
    subtitle: 'Calles, drenaje y electricidad que funcionen cuando hacen falta',
    bullets: [
      'Publicar un calendario de reparaciones calle por calle, con presupuestos y plazos',
      'Mantener los sumideros y las bombas todo el año, no solo antes de las tormentas',
      'Exigir un suministro eléctrico confiable y generación de respaldo en las instalaciones críticas',
      'Plantar árboles y añadir infraestructura verde para reducir las inundaciones y el calor',
    ],
  },
  {
    title: 'Reformas financieras e ingresos',
    subtitle: 'La disciplina de un contador para el presupuesto de la ciudad',
    bullets: [
      'Publicar cada gasto de la ciudad en una chequera abierta en línea',
      'Encargar una auditoría forense independiente en el primer año',
      'Cobrar lo que ya se le debe a la ciudad antes de subir cualquier tarifa',
      'Presentar cada año a los residentes un presupuesto equilibrado y en lenguaje sencillo',
    ],
  },
  {
    title: 'Desarrollo comunitario y equidad',
    subtitle: 'Inversión en todos los barrios, no solo en algunos',
    bullets: [
      'Dirigir las inversiones de capital a los barrios que más han esperado',
      'Celebrar audiencias de presupuesto por distrito antes de aprobar el presupuesto',
      'Apoyar los fideicomisos comunitarios de tierras y las asociaciones de vecinos',
      'Medir y publicar los resultados por distrito del concejo',
    ],
  },
  {
    title: 'Turismo y sitios históricos',
    subtitle: 'Proteger la cultura que hace única a Nueva Orleans',
    bullets: [
      'Reinvertir una parte justa de los ingresos del turismo en los barrios que reciben a los visitantes',
      'Preservar los edificios históricos y apoyar a los portadores de la cultura y a los músicos',
      'Mantener el Barrio Francés y los corredores limpios, seguros y bien iluminados',
      'Promover sitios más allá del Barrio Francés para repartir el gasto de los visitantes en toda la ciudad',
    ],
  },
  {
    title: 'Reformas en la educación',
    subtitle: 'Alianzas para los estudiantes, las familias y el aprendizaje a lo largo de la vida',
    bullets: [
      'Trabajar con las escuelas en rutas seguras y programas después de clases y de verano',
      'Ampliar los programas de aprendices para jóvenes con empleadores locales',
      'Mantener abiertas por más horas las bibliotecas y los centros recreativos',
      'Apoyar la alfabetización de adultos y los programas de capacitación laboral',
    ],
  },
  {
    title: 'Acceso y reformas en la salud',
    subtitle: 'Atención cerca de casa para cada residente',
    bullets: [
      'Ampliar las clínicas de barrio y los servicios de salud móviles',
      'Financiar la respuesta a crisis de salud mental junto con los servicios de emergencia',
      'Colaborar con los hospitales en la atención preventiva y los exámenes de salud',
      'Preparar planes de refugio y enfriamiento para el calor extremo y las tormentas',
    ],
  },
  {
    title: 'Arreglos en impuestos y facturación',
    subtitle: 'Facturas correctas y un proceso justo y sencillo',
    bullets: [
      'Corregir los errores en las facturas de agua y alcantarillado y reembolsar los cobros excesivos',
      'Crear un solo portal en línea para las facturas y los pagos de la ciudad',
      'Hacer claros y previsibles los avalúos de propiedades y las apelaciones',
      'Responder las quejas de facturación dentro de plazos fijos y publicados',
    ],
  },
  {
    title: 'Vivienda asequible y contra el desplazamiento',
    subtitle: 'Que los residentes de siempre sigan en los barrios que construyeron',
    bullets: [
      'Hacer cumplir las reglas de alquileres a corto plazo y proteger la vivienda a largo plazo',
      'Devolver los lotes abandonados y de la ciudad a un uso productivo y asequible',
      'Ampliar la ayuda para reparar viviendas de personas mayores y propietarios de bajos ingresos',
      'Agilizar los permisos para vivienda asequible y de ingresos mixtos',
    ],
  },
  {
    title: 'Desarrollo económico y creación de empleos',
    subtitle: 'Buenos empleos y una oportunidad justa para los negocios locales',
    bullets: [
      'Pagar a tiempo a los proveedores de la ciudad y simplificar la contratación para empresas pequeñas',
      'Fijar metas claras de contratación local en los proyectos financiados por la ciudad',
      'Crear una sola oficina para permisos y licencias',
      'Apoyar la capacitación laboral ligada a las industrias en crecimiento',
    ],
  },
] satisfies Translation<typeof en.priorities>;

export const platformCallToAction = {
  heading: 'Ayude a convertir este plan en resultados',
  text: 'Las propuestas solo importan si ganamos. Dé una hora o dé un dólar: las dos cosas hacen avanzar la campaña.',
} satisfies Translation<typeof en.platformCallToAction>;
