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

// ---------- instants as feeds write them ----------

/** Month names readers meet in feeds: English, Portuguese, Spanish, French, German, Italian, Dutch (ICU's long and short forms). */
const MONTH_LOCALES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl'];

const fold = (word: string) =>
  word
    .normalize('NFD')
    .replace(/[\u0300-\u036f.]/g, '')
    .toLowerCase();

const MONTH_NAMES: { name: string; month: number }[] = MONTH_LOCALES.flatMap((locale) =>
  (['long', 'short'] as const).flatMap((width) => {
    const format = new Intl.DateTimeFormat(locale, { month: width, timeZone: 'UTC' });
    return Array.from({ length: 12 }, (_, month) => ({ name: fold(format.format(Date.UTC(2020, month, 15))), month }));
  }),
);

/** A month name or abbreviation (any of the languages above; a prefix of 3 letters or more) → 0–11; null if none or ambiguous (`jui`). */
export function monthOf(word: string): number | null {
  let month = monthCache.get(word);
  if (month === undefined) {
    month = readMonth(word);
    if (monthCache.size < 1000) monthCache.set(word, month);
  }
  return month;
}

const monthCache = new Map<string, number | null>();

function readMonth(word: string): number | null {
  const w = fold(word);
  if (w === '') return null;
  const months = new Set(
    MONTH_NAMES.filter((m) => m.name === w || (w.length >= 3 && m.name.startsWith(w))).map((m) => m.month),
  );
  return months.size === 1 ? [...months][0]! : null;
}

/** Zone abbreviations feeds use, in minutes east of UTC (ambiguous ones such as IST are left out: unreadable). */
const ZONES: Record<string, number> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  wet: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  bst: 60,
  west: 60,
  cet: 60,
  cest: 120,
  mez: 60,
  mesz: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  brt: -180,
  brst: -120,
  art: -180,
  jst: 540,
  kst: 540,
  hkt: 480,
  sgt: 480,
  awst: 480,
  acst: 570,
  acdt: 630,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
};

/** `+0200`, `-03:00`, `GMT+2`, `CEST` → minutes east of UTC; '' → UTC; null when unknown. */
function zoneOffset(zone: string): number | null {
  const z = zone.trim().toLowerCase();
  if (z === '') return 0;
  const numeric = /^(?:gmt|utc)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(z);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    return minutes > 14 * 60 ? null : (numeric[1] === '-' ? -1 : 1) * minutes;
  }
  return ZONES[z] ?? null;
}

/** Epoch ms of a wall-clock time in a zone, or null when a field is out of range (31 February, 25:00). */
function instantOf(
  year: number,
  month: number,
  day: number,
  time: { hour: number; minute: number; second: number; ms: number },
  offsetMinutes: number,
): number | null {
  if (month < 0 || month > 11 || day < 1 || year < 1) return null;
  if (time.hour > 23 || time.minute > 59 || time.second > 60) return null;
  const d = new Date(Date.UTC(2000, month, day, time.hour, time.minute, Math.min(time.second, 59), time.ms));
  d.setUTCFullYear(year);
  if (d.getUTCMonth() !== month || d.getUTCDate() !== day) return null;
  return d.getTime() - offsetMinutes * 60_000;
}

const WORD = String.raw`[\p{L}]+\.?`;
const TIME = String.raw`(?:[,\s]+(?:at|à|às|a las|um|alle|om|-)?\s*(\d{1,2})(?:[:h.]|(?=\d{2}\b))(\d{2})(?:[:.](\d{2})(?:[.,](\d+))?)?\s*([ap]\.?m\.?)?)?`;
const ZONE = String.raw`\s*((?:gmt|utc)?[+-]\d{1,2}(?::?\d{2})?|[a-z]{1,5})?`;
const ISO_FORM = new RegExp(
  String.raw`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(z|(?:gmt|utc)?[+-]\d{1,2}(?::?\d{2})?|[a-z]{1,5})?$`,
  'iu',
);
// [weekday,] 24 [de] Set[.] [de] 2018 [19:42:40] [-0300]  (RFC 822 and its translations)
const DAY_MONTH_YEAR = new RegExp(
  String.raw`^(?:${WORD},?\s*)?(\d{1,2})(?:\.|º|er|st|nd|rd|th)?\s*(?:de\s+)?-?(${WORD})-?,?\s*(?:de\s+)?(\d{4}|\d{2})${TIME}${ZONE}$`,
  'iu',
);
// [weekday,] September 24[th], 2018 [7:42 PM] [EST]
const MONTH_DAY_YEAR = new RegExp(
  String.raw`^(?:${WORD},?\s+)?(${WORD})\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME}${ZONE}$`,
  'iu',
);

function timeOf(h?: string, m?: string, s?: string, frac?: string, meridiem?: string) {
  let hour = Number(h ?? 0);
  const pm = meridiem?.toLowerCase().startsWith('p');
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  return {
    hour,
    minute: Number(m ?? 0),
    second: Number(s ?? 0),
    ms: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0,
  };
}

const fullYear = (y: string) => (y.length === 2 ? (Number(y) < 50 ? 2000 : 1900) + Number(y) : Number(y));

/**
 * A date as feeds write it → epoch ms (UTC), or null when it cannot be read
 * with confidence. Reads ISO 8601 / RFC 3339 (a date alone, a space for the
 * `T`, no zone: UTC), RFC 822 and its usual breakages (two-digit years,
 * missing seconds, zone names such as `CEST`, a trailing `(CEST)`), and the
 * same with month and weekday names in Portuguese, Spanish, French, German,
 * Italian or Dutch (`Seg, 24 Set 2018 19:42:40 -0300`, `3. März 2020`). A
 * date without a zone is taken as UTC, never as the server's local time.
 */
export function parseFeedInstant(value: string): number | null {
  const text = value
    .trim()
    .replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/\s+/g, ' ');
  if (text === '') return null;
  const iso = ISO_FORM.exec(text);
  if (iso) {
    const offset = zoneOffset(iso[8] ?? '');
    const time = timeOf(iso[4], iso[5], iso[6], iso[7]);
    if (offset === null || !time) return null;
    return instantOf(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), time, offset);
  }
  const dmy = DAY_MONTH_YEAR.exec(text);
  const mdy = dmy ? null : MONTH_DAY_YEAR.exec(text);
  const parts = dmy
    ? { day: dmy[1]!, month: dmy[2]!, year: dmy[3]!, rest: dmy.slice(4) }
    : mdy
      ? { day: mdy[2]!, month: mdy[1]!, year: mdy[3]!, rest: mdy.slice(4) }
      : null;
  if (!parts) return null;
  const month = monthOf(parts.month);
  const [h, m, s, frac, meridiem, zone] = parts.rest;
  const offset = zoneOffset(zone ?? '');
  const time = timeOf(h, m, s, frac, meridiem);
  if (month === null || offset === null || !time) return null;
  return instantOf(fullYear(parts.year), month, Number(parts.day), time, offset);
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
