// The profanity filter's fast path (all of obscenity's patterns at once,
// before obscenity itself) answers exactly as obscenity does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProfane, isProfaneSlowly, profanityFastPath } from '../../src/domain/profanity.js';

// profane words, their disguises (leet, spacing, repeats, case, confusables), words obscenity's
// whitelist or word boundaries keep clean, and plain words
const WORDS = [
  'fuck',
  'FuCk',
  'f u c k',
  'fuuuuck',
  'fvck',
  'sh1t',
  'shit',
  'b1tch',
  'bitch',
  'a$$hole',
  'cunt',
  'dick',
  'penis',
  'pen is',
  'ｆｕｃｋ',
  'ƒuck',
  'wanker',
  'bastard',
  'slut',
  'whore',
  'nigger',
  'retard',
  'assassin',
  'Scunthorpe',
  'cocktail',
  'class',
  'grass',
  'bass',
  'analysis',
  'therapist',
  'shitake',
  'dickens',
  'hello',
  'harbour',
  'boats',
  'Café',
  'naïve',
  '🙂',
  '#tag',
  '@ana',
  'https://x.example/a',
];

describe('profanity filter', () => {
  it('takes the fast path with this version of obscenity', () => {
    expect(profanityFastPath()).toBe(true);
  });

  it('says what obscenity says of plain, profane and disguised texts', () => {
    for (const word of WORDS) expect(isProfane(`a ${word} b`), word).toBe(isProfaneSlowly(`a ${word} b`));
    expect(isProfane('what the fuck')).toBe(true);
    expect(isProfane('A quiet morning at the harbour')).toBe(false);
  });

  it('says what obscenity says of any text (fast-check)', () => {
    const piece = fc.oneof(
      fc.constantFrom(...WORDS),
      fc.constantFrom(' ', '.', '-', '\n', '  ', '*'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join('');
        expect(isProfane(text)).toBe(isProfaneSlowly(text));
      }),
      { numRuns: 4000 },
    );
  });
});
