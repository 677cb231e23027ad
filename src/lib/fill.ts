/**
 * A phrase with numbered placeholders filled in: `fill('{0} of {1}', 2, 5)` is
 * "2 of 5". Island words are plain strings (island props must serialise), so a
 * translation can put the placeholders where its grammar wants them.
 */
export function fill(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const value = args[Number(i)];
    return value === undefined ? whole : String(value);
  });
}
