import fc from 'fast-check';

/* Arbitraries shared by the API fuzz tests (forms-fuzz, ops-fuzz). */

/** Any value a JSON or form body might carry where a field is expected. */
export const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(''),
  fc.constant(null),
);

/**
 * Records with the endpoint's own field names: each field mostly plausible,
 * sometimes junk or missing, and sometimes a stray key (so both 2xx and 4xx occur).
 */
export function formOf(fields: Record<string, fc.Arbitrary<unknown>>) {
  const biased = Object.fromEntries(
    Object.entries(fields).map(([k, a]) => [
      k,
      fc.oneof(
        { arbitrary: a, weight: 12 },
        { arbitrary: anyValue, weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      ),
    ]),
  );
  const extra = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 2 }), weight: 1 },
  );
  return fc.tuple(fc.record(biased), extra).map(([r, x]) => {
    const clean = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
    return x ? { ...x, ...clean } : clean;
  });
}
