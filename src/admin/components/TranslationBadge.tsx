import { LANG_NAMES_FOR_STAFF } from '../../lib/lang-names.ts';
import type { TranslationLang, TranslationStatus } from '../../lib/schemas/translation.ts';
import { Badge, type BadgeVariant } from './Badge.tsx';

const LOOK: Record<TranslationStatus, { variant: BadgeVariant; text: string }> = {
  current: { variant: 'success', text: 'up to date' },
  stale: { variant: 'warning', text: 'out of date' },
  missing: { variant: 'outline', text: 'none' },
};

/** "Spanish: out of date" (docs/decisions/166-spanish.md): a translation's status, in words (never colour alone). */
export function TranslationBadge({ lang, status }: { lang: TranslationLang; status: TranslationStatus }) {
  const look = LOOK[status];
  return (
    <Badge variant={look.variant}>
      {LANG_NAMES_FOR_STAFF[lang]}: {look.text}
    </Badge>
  );
}
