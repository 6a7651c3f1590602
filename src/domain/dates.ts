// The three date forms the API prints (contract §5), all in UTC whatever the
// process time zone, and the one form it reads (date_from).

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad4 = (n: number) => String(n).padStart(4, '0');

/** `DD/MM/YYYY` */
export function formatDayMonthYear(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${pad4(d.getUTCFullYear())}`;
}

/** `2024-03-01T09:00:00.000Z` */
export function formatIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `Fri Mar 01 2024 09:00:00 GMT+0000 (Coordinated Universal Time)` */
export function formatLongText(ms: number): string {
  const d = new Date(ms);
  return (
    `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad2(d.getUTCDate())} ${pad4(d.getUTCFullYear())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} GMT+0000 (Coordinated Universal Time)`
  );
}

/**
 * `DD/MM/YYYY` → epoch ms of 00:00:00 UTC that day, or null when the text is
 * malformed or names a day that does not exist (31/02/2024).
 */
export function parseDayMonthYear(text: string): number | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const day = Number(m[1]);
  const month = Number(m[2]);
  const year = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  // Date.UTC maps years 0–99 to 1900–1999; set the full year explicitly.
  d.setUTCFullYear(year, month - 1, day);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return d.getTime();
}

/** Strict ISO 8601 UTC instant as the data file writes it; null when malformed. */
export function parseIsoInstant(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  // Reject rolled-over days such as 2024-02-31 that Date.parse accepts.
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(2000, mo - 1, d));
  check.setUTCFullYear(y);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return null;
  return ms;
}

/** UTC day number (days since 1970-01-01). */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Epoch ms of the next 00:00 UTC after `ms`. */
export function nextUtcMidnight(ms: number): number {
  return (utcDay(ms) + 1) * DAY_MS;
}
