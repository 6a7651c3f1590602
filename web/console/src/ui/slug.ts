// A wall's URL slug suggested from its name, as the API takes slugs: 1 to 100
// lowercase letters, digits, - and _, starting and ending with a letter or
// digit ("Café Open Day 2026!" → "cafe-open-day-2026").

export const SLUG_MAX = 100;

/** The slug a name suggests; '' when the name has no letter or digit to make one of. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}
