import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { copyFor } from '../../src/content/copy.ts';
import { fieldMessageIn } from '../../src/islands/form-kit/field-message.ts';
import { refusal } from '../../src/islands/RsvpForm.tsx';
import { ApiError } from '../../src/lib/client/api.ts';
import { CONTROL_CHARACTERS_MESSAGE } from '../../src/lib/schemas/fields.ts';
import {
  ContactMessageSchema,
  TextSignupSchema,
  VolunteerSignupSchema,
} from '../../src/lib/schemas/forms.ts';
import { NAME_CHARACTERS_MESSAGE } from '../../src/lib/schemas/public-forms.ts';
import { RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import { VotePlanInputSchema } from '../../src/lib/schemas/vote-plan.ts';
import { planMessageIn } from '../../src/lib/vote-plan.ts';
import { INVISIBLE, REAL } from '../fixtures/hostile-names.ts';

/**
 * Names with invisible format characters (bidi overrides and isolates, zero-width characters, the byte-order mark)
 * are refused at intake on every public form that takes a name, with one message in English and Spanish
 * (docs/decisions/075-names-are-not-a-channel.md). The same approach as control-characters.test.ts: a valid sample
 * per schema, each name field poisoned in turn.
 */
const samples: [string, z.ZodType, Record<string, unknown>, string[]][] = [
  [
    'text sign-up',
    TextSignupSchema,
    { firstName: 'Ada', phone: '504-555-0100', smsConsent: true, captcha: 't' },
    ['firstName'],
  ],
  [
    'volunteer',
    VolunteerSignupSchema,
    {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'g@h.co',
      phone: '504-555-0101',
      address1: '1 Canal St',
      city: 'New Orleans',
      state: 'LA',
      captchaResponse: 't',
    },
    ['firstName', 'lastName'],
  ],
  [
    'contact',
    ContactMessageSchema,
    { name: 'Alan', email: 'a@t.co', subject: 'general', message: 'Hi', captcha: 't' },
    ['name'],
  ],
  ['RSVP', RsvpInputSchema, { name: 'Ana', email: 'a@t.co', captchaResponse: 't' }, ['name']],
  [
    'plan to vote',
    VotePlanInputSchema,
    { day: '2031-01-04', method: 'in-person', name: 'Ana', email: 'a@t.co', bringing: 'Luis', captcha: 't' },
    ['name', 'bringing'],
  ],
];

const issuesOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

const { formUi: esFormUi } = copyFor('es').ui;
const { planCopy: esPlanCopy } = copyFor('es').vote;
const { formUi } = copyFor('en').ui;
const { planCopy } = copyFor('en').vote;

describe('invisible characters in names', () => {
  it.each(samples)('%s: the valid sample parses', (_name, schema, sample) => {
    expect(schema.safeParse(sample).success).toBe(true);
  });

  it.each(samples)(
    '%s: bidi, zero-width and BOM are refused with the name message',
    (_n, schema, sample, fields) => {
      for (const field of fields)
        for (const bad of INVISIBLE) {
          const r = schema.safeParse({ ...sample, [field]: bad });
          expect(issuesOf(r), `${field} ${JSON.stringify(bad)}`).toEqual([
            `${field}: ${NAME_CHARACTERS_MESSAGE}`,
          ]);
        }
    },
  );

  it.each(samples)('%s: control characters keep their own message', (_n, schema, sample, fields) => {
    for (const field of fields) {
      const r = schema.safeParse({ ...sample, [field]: 'Ana\u0000X' });
      expect(issuesOf(r)).toContain(`${field}: ${CONTROL_CHARACTERS_MESSAGE}`);
    }
  });

  it.each(samples)('%s: real names pass intact', (_n, schema, sample, fields) => {
    for (const field of fields)
      for (const name of REAL) {
        const r = schema.safeParse({ ...sample, [field]: name });
        expect(r.success, name).toBe(true);
        expect((r.data as Record<string, unknown>)[field]).toBe(name);
      }
  });

  it('the message is translated on Spanish pages, for every form', () => {
    expect(esFormUi.nameCharacters).not.toBe(NAME_CHARACTERS_MESSAGE);
    expect(esPlanCopy.errors.nameCharacters).toBe(esFormUi.nameCharacters);
    for (const field of ['firstName', 'lastName', 'name']) {
      expect(fieldMessageIn('es', esFormUi)(field, NAME_CHARACTERS_MESSAGE)).toBe(esFormUi.nameCharacters);
      expect(fieldMessageIn('en', formUi)(field, NAME_CHARACTERS_MESSAGE)).toBe(NAME_CHARACTERS_MESSAGE);
    }
    expect(planMessageIn('es', esPlanCopy.errors)(NAME_CHARACTERS_MESSAGE, 'name')).toBe(
      esFormUi.nameCharacters,
    );
    expect(planMessageIn('en', planCopy.errors)(NAME_CHARACTERS_MESSAGE, 'name')).toBe(
      NAME_CHARACTERS_MESSAGE,
    );
    // The RSVP island words its refusals itself.
    const body = JSON.stringify({
      error: NAME_CHARACTERS_MESSAGE,
      fields: { name: NAME_CHARACTERS_MESSAGE },
    });
    const err = new ApiError(400, body, '');
    const rsvpEs = refusal(err, 'es', copyFor('es').ui.eventPageCopy.rsvp, esFormUi, {});
    expect(rsvpEs.fields).toEqual({ name: esFormUi.nameCharacters });
    const rsvpEn = refusal(err, 'en', copyFor('en').ui.eventPageCopy.rsvp, formUi, {});
    expect(rsvpEn.fields).toEqual({ name: NAME_CHARACTERS_MESSAGE });
  });
});
