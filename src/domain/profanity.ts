// The profanity filter: obscenity's English dataset with its recommended
// transformers (leet speak, confusable letters, repeated letters, …).
//
// obscenity tests a text with each of its ~120 patterns in turn, ~30 µs for
// a short post, most of a rule list's cost at ingestion. Almost no post
// matches any pattern, so a text is first tested against all the patterns
// at once — one regular expression, their alternation, over the same
// transformed text obscenity matches — and only a text that one pattern
// matches goes to obscenity itself (which then applies its whitelist). A
// text no pattern matches is clean, so the answer is obscenity's own (a
// property test holds them equal); the fast path takes ~7 µs. It reads two
// members that obscenity's typings call private: when a version lacks them,
// every text goes to obscenity as before.
import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';

interface Filter {
  matcher: RegExpMatcher;
  /** true when the text may be profane (then obscenity decides); null: no fast path */
  mayMatch: ((text: string) => boolean) | null;
}

/** obscenity's compiled patterns and transformer step, where this version has them. */
interface MatcherInternals {
  blacklistedTerms?: { regExp?: unknown }[];
  blacklistMatcherTransformers?: unknown;
  applyTransformers?: (input: string, transformers: unknown) => [number[], string];
}

function fastPath(matcher: RegExpMatcher): Filter['mayMatch'] {
  const inner = matcher as unknown as MatcherInternals;
  const terms = inner.blacklistedTerms;
  const transform = inner.applyTransformers;
  if (!Array.isArray(terms) || typeof transform !== 'function' || inner.blacklistMatcherTransformers === undefined)
    return null;
  const sources: string[] = [];
  for (const term of terms) {
    if (!(term.regExp instanceof RegExp)) return null;
    sources.push(`(?:${term.regExp.source})`);
  }
  const any = new RegExp(sources.join('|'), 's');
  return (text) => any.test(transform.call(matcher, text, inner.blacklistMatcherTransformers)[1]);
}

let filter: Filter | null = null;

function englishFilter(): Filter {
  if (filter === null) {
    const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
    filter = { matcher, mayMatch: fastPath(matcher) };
  }
  return filter;
}

/** Whether obscenity's English filter finds profanity in `text`. */
export function isProfane(text: string): boolean {
  const { matcher, mayMatch } = englishFilter();
  if (mayMatch !== null && !mayMatch(text)) return false;
  return matcher.hasMatch(text);
}

/** Whether this version of obscenity lets the fast path in (else every text takes obscenity's own way). */
export function profanityFastPath(): boolean {
  return englishFilter().mayMatch !== null;
}

/** obscenity's own answer, without the fast path (for the test that holds them equal). */
export function isProfaneSlowly(text: string): boolean {
  return englishFilter().matcher.hasMatch(text);
}
