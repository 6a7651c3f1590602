// Unit tests of src/domain/dates.ts (contract §5 and the date_from rule of §4).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDayMonthYear,
  formatIso,
  formatLongText,
  nextUtcMidnight,
  monthOf,
  parseFeedInstant,
  parseDayMonthYear,
  parseIsoInstant,
  utcDay,
} from '../../src/domain/dates.js';

const DAY = 86_400_000;
/** any instant of the years 0001–9999 */
const msArb = fc.integer({ min: -62135596800000, max: 253402300799999 });

describe('formatDayMonthYear', () => {
  it.each([
    ['2024-03-01T09:00:00.000Z', '01/03/2024'],
    ['2024-02-29T23:59:59.999Z', '29/02/2024'],
    ['2024-12-31T00:00:00.000Z', '31/12/2024'],
    ['1970-01-01T00:00:00.000Z', '01/01/1970'],
    ['0099-07-04T12:00:00.000Z', '04/07/0099'],
    ['2022-05-17T09:41:00.000Z', '17/05/2022'],
  ])('%s → %s', (iso, expected) => {
    expect(formatDayMonthYear(Date.parse(iso))).toBe(expected);
  });

  it('is UTC whatever the process time zone: 23:30 UTC stays that day', () => {
    expect(formatDayMonthYear(Date.UTC(2024, 0, 31, 23, 30))).toBe('31/01/2024');
    expect(formatDayMonthYear(Date.UTC(2024, 1, 1, 0, 30))).toBe('01/02/2024');
  });
});

describe('formatIso', () => {
  it('prints milliseconds and Z', () => {
    expect(formatIso(Date.UTC(2024, 2, 1, 9))).toBe('2024-03-01T09:00:00.000Z');
    expect(formatIso(Date.UTC(2024, 2, 1, 9, 0, 0, 7))).toBe('2024-03-01T09:00:00.007Z');
  });
});

describe('formatLongText', () => {
  it.each([
    [Date.UTC(2024, 2, 1, 9), 'Fri Mar 01 2024 09:00:00 GMT+0000 (Coordinated Universal Time)'],
    [Date.UTC(2022, 4, 17, 9, 41), 'Tue May 17 2022 09:41:00 GMT+0000 (Coordinated Universal Time)'],
    [Date.UTC(2023, 1, 4, 8, 15), 'Sat Feb 04 2023 08:15:00 GMT+0000 (Coordinated Universal Time)'],
    [Date.UTC(1999, 11, 31, 23, 59, 59, 999), 'Fri Dec 31 1999 23:59:59 GMT+0000 (Coordinated Universal Time)'],
    [0, 'Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)'],
  ])('%i → %s', (ms, expected) => {
    expect(formatLongText(ms)).toBe(expected);
  });

  it('agrees with toUTCString() reordered, for any instant from year 1000 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59) }), (ms) => {
        const m = /^(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\d{2}:\d{2}:\d{2}) GMT$/.exec(new Date(ms).toUTCString());
        expect(m).not.toBeNull();
        const [, wd, dd, mon, yyyy, time] = m as RegExpExecArray;
        expect(formatLongText(ms)).toBe(`${wd} ${mon} ${dd} ${yyyy} ${time} GMT+0000 (Coordinated Universal Time)`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseDayMonthYear', () => {
  it.each([
    ['01/03/2024', Date.UTC(2024, 2, 1)],
    ['29/02/2024', Date.UTC(2024, 1, 29)],
    ['31/12/1999', Date.UTC(1999, 11, 31)],
    ['17/07/2024', Date.UTC(2024, 6, 17)],
    ['01/01/0050', -60589296000000],
  ])('%s → 00:00 UTC of that day', (text, ms) => {
    expect(parseDayMonthYear(text)).toBe(ms);
  });

  it.each([
    '31/02/2024',
    '29/02/2023',
    '30/02/2024',
    '31/04/2024',
    '13/13/2024',
    '01/13/2024',
    '00/01/2024',
    '01/00/2024',
    '32/01/2024',
    '00/00/0000',
    '01/01/0000',
    '2024-01-01',
    '1/1/2024',
    '01/01/24',
    '01-01-2024',
    ' 01/01/2024',
    '01/01/2024 ',
    '01/01/20245',
    '',
    'abc',
    '０1/01/2024',
  ])('%j → null', (text) => {
    expect(parseDayMonthYear(text)).toBeNull();
  });

  it('round-trips with formatDayMonthYear for every day of years 1–9999', () => {
    fc.assert(
      fc.property(msArb, (ms) => {
        const text = formatDayMonthYear(ms);
        expect(parseDayMonthYear(text)).toBe(Math.floor(ms / DAY) * DAY);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects exactly the impossible days (checked against a calendar)', () => {
    const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    const days = (y: number, m: number) =>
      [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] as number;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 9999 }),
        (d, m, y) => {
          const text = `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${String(y).padStart(4, '0')}`;
          const valid = y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= days(y, m);
          expect(parseDayMonthYear(text) !== null).toBe(valid);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('parseIsoInstant', () => {
  it('reads the data file form', () => {
    expect(parseIsoInstant('2024-03-01T09:00:00.000Z')).toBe(Date.UTC(2024, 2, 1, 9));
    expect(parseIsoInstant('2024-03-01T09:00:00Z')).toBe(Date.UTC(2024, 2, 1, 9));
    expect(parseIsoInstant('2024-03-01T10:00:00+01:00')).toBe(Date.UTC(2024, 2, 1, 9));
  });
  it.each(['2024-02-31T00:00:00Z', '2024-03-01', '2024-03-01T25:00:00Z', '2024-03-01T09:00:00', 'x'])(
    '%j → null',
    (t) => {
      expect(parseIsoInstant(t)).toBeNull();
    },
  );
});

describe('utcDay / nextUtcMidnight', () => {
  it('the next 00:00 UTC, strictly after the instant', () => {
    expect(nextUtcMidnight(Date.UTC(2026, 0, 15, 12))).toBe(Date.UTC(2026, 0, 16));
    expect(nextUtcMidnight(Date.UTC(2026, 0, 15, 23, 59, 59, 999))).toBe(Date.UTC(2026, 0, 16));
    expect(nextUtcMidnight(Date.UTC(2026, 0, 16))).toBe(Date.UTC(2026, 0, 17));
    expect(nextUtcMidnight(Date.UTC(2024, 1, 29, 5))).toBe(Date.UTC(2024, 2, 1));
    expect(nextUtcMidnight(Date.UTC(2025, 11, 31, 18))).toBe(Date.UTC(2026, 0, 1));
  });

  it('utcDay changes exactly at midnight', () => {
    expect(utcDay(Date.UTC(2026, 0, 16) - 1)).toBe(utcDay(Date.UTC(2026, 0, 15)));
    expect(utcDay(Date.UTC(2026, 0, 16))).toBe(utcDay(Date.UTC(2026, 0, 15)) + 1);
    expect(utcDay(0)).toBe(0);
  });

  it('for any instant: midnight is in (ms, ms + 1 day] and is a multiple of a day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4102444800000 }), (ms) => {
        const m = nextUtcMidnight(ms);
        expect(m).toBeGreaterThan(ms);
        expect(m - ms).toBeLessThanOrEqual(DAY);
        expect(m % DAY).toBe(0);
        expect(utcDay(m)).toBe(utcDay(ms) + 1);
      }),
    );
  });
});

describe('parseFeedInstant', () => {
  it('reads month names in several languages, and refuses an ambiguous or impossible date', () => {
    expect(parseFeedInstant('Seg, 24 Set 2018 19:42:40 -0300')).toBe(Date.UTC(2018, 8, 24, 22, 42, 40));
    expect(parseFeedInstant('Dienstag, 3. März 2020 10:00')).toBe(Date.UTC(2020, 2, 3, 10));
    expect(parseFeedInstant('24 de setembro de 2018 19:42')).toBe(Date.UTC(2018, 8, 24, 19, 42));
    expect(parseFeedInstant('Monday, September 24, 2018 7:42 PM EST')).toBe(Date.UTC(2018, 8, 25, 0, 42));
    expect(monthOf('jui')).toBeNull(); // juin or juillet
    expect(monthOf('juil.')).toBe(6);
    expect(parseFeedInstant('Sun, 31 Feb 2018 10:00:00 GMT')).toBeNull();
    expect(parseFeedInstant('Mon, 24 Sep 2018 19:42:40 IST')).toBeNull(); // Irish, Indian or Israeli
    expect(parseFeedInstant('yesterday')).toBeNull();
  });
});
