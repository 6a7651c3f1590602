// How restore reads pg_restore's table of contents: the entries' keys, the
// names an operator is shown, and the list that leaves foreign entries out.
// (The comparison with a freshly migrated store runs against real stores in
// test/cli/backup.test.ts.)
import { describe, expect, it } from 'vitest';
import { describeTocEntries, listWithout, tocEntries } from '../../../src/store/backup/foreign-objects.js';

const LISTING = [
  ';',
  '; Archive created at 2026-11-28 01:43:24 UTC',
  ';',
  '247; 1255 16585 FUNCTION public wallery_announce(text, bigint[]) postgres',
  '217; 1259 16402 TABLE public accounts postgres',
  '3660; 0 0 SEQUENCE OWNED BY public accounts_id_seq postgres',
  '300; 1259 17000 TABLE public stolen postgres',
  '3700; 0 17000 TABLE DATA public stolen postgres',
  '3701; 2606 17001 CONSTRAINT public stolen stolen_pkey postgres',
  '3702; 2620 17002 TRIGGER public posts leak postgres',
  '3703; 2615 17003 SCHEMA - evil postgres',
  '3704; 1259 17004 VIEW evil v postgres',
  '3705; 1255 17005 FUNCTION public leak() ',
  '',
].join('\n');

describe('tocEntries', () => {
  it('keys each entry without dump id, oids and owner, an entry without owner too; skips comments', () => {
    expect(tocEntries(LISTING).map((e) => e.key)).toEqual([
      'FUNCTION public wallery_announce(text, bigint[])',
      'TABLE public accounts',
      'SEQUENCE OWNED BY public accounts_id_seq',
      'TABLE public stolen',
      'TABLE DATA public stolen',
      'CONSTRAINT public stolen stolen_pkey',
      'TRIGGER public posts leak',
      'SCHEMA - evil',
      'VIEW evil v',
      'FUNCTION public leak()',
    ]);
  });
});

describe('describeTocEntries', () => {
  it("names objects as an operator reads them; a foreign table's data and constraints go with it", () => {
    const foreign = tocEntries(LISTING).filter((e) => /stolen|leak|evil/.test(e.key));
    expect(describeTocEntries(foreign)).toEqual([
      'table stolen',
      'trigger leak on posts',
      'schema evil',
      'view evil.v',
      'function leak()',
    ]);
  });
});

describe('listWithout', () => {
  it('comments out exactly the foreign entries, so pg_restore --use-list restores the rest', () => {
    const foreign = tocEntries(LISTING).filter((e) => e.key.startsWith('TRIGGER'));
    const list = listWithout(LISTING, foreign).split('\n');
    expect(list.filter((l) => l.startsWith(';3'))).toEqual([';3702; 2620 17002 TRIGGER public posts leak postgres']);
    expect(list.filter((l) => /^\d/.test(l))).toHaveLength(tocEntries(LISTING).length - 1);
  });
});
