// The spam signals, pure: the 64-bit SimHash (properties over generated
// texts: identical text → distance 0, whatever its case, punctuation and
// markup; one word changed in a long text → a small distance; unrelated
// texts → about half the bits), links and link-only posts, the account rule's
// findings, and the history judge's order (the earlier post of a pair is
// never the duplicate; a burst counts the post itself and its window only).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules, completeRules, ruleSubjectOf, type Rule } from '../../src/domain/rules.js';
import { hamming, simhash } from '../../src/domain/simhash.js';
import { accountFinding, HistoryJudge, historyPost, isLinkOnly, linksOf } from '../../src/domain/spam.js';

type AccountRule = Extract<Rule, { kind: 'account' }>;

// a vocabulary large enough that two generated texts share few word pairs
const VOCABULARY = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${((i * 7919) % 1000).toString(36)}`);
const word = fc.constantFrom(...VOCABULARY);
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max });
const SEED = { seed: 20261129, numRuns: 300 };

describe('simhash', () => {
  it('is 16 hex digits, the same for the same words whatever the case, punctuation, spacing and markup', () => {
    fc.assert(
      fc.property(text(3, 60), fc.boolean(), (words, upper) => {
        const plain = words.join(' ');
        const noisy = words.map((w, i) => (i % 3 === 0 ? `${upper ? w.toUpperCase() : w}!` : w)).join(' ,  ');
        const h = simhash(plain);
        expect(h).toMatch(/^[0-9a-f]{16}$/);
        expect(hamming(h, simhash(noisy))).toBe(0);
      }),
      SEED,
    );
    expect(simhash('Crème brûlée at the café')).toBe(simhash('creme BRULEE at the cafe'));
  });

  it('gives texts of fewer than 3 words no hash', () => {
    expect(simhash('')).toBe('');
    expect(simhash('Hello there')).toBe('');
    expect(simhash('  ¡¿ — !! ')).toBe('');
    expect(simhash('Hello there friend')).not.toBe('');
  });

  it('one word changed in a text of 40 to 80 words: a small distance; unrelated texts: about half the bits', () => {
    const edited: number[] = [];
    const unrelated: number[] = [];
    fc.assert(
      fc.property(text(40, 80), text(40, 80), fc.nat(), word, (a, b, at, replacement) => {
        const changed = [...a];
        changed[at % a.length] = replacement;
        const e = hamming(simhash(a.join(' ')), simhash(changed.join(' ')));
        const u = hamming(simhash(a.join(' ')), simhash(b.join(' ')));
        edited.push(e);
        unrelated.push(u);
        // the property for each case: one word changed moves far fewer bits than unrelated text does on average
        expect(e).toBeLessThanOrEqual(16);
      }),
      SEED,
    );
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean(edited)).toBeLessThan(8);
    expect(mean(unrelated)).toBeGreaterThan(28);
    expect(mean(unrelated)).toBeLessThan(36);
    expect(Math.min(...unrelated)).toBeGreaterThan(12);
  });

  it('is order-sensitive: the same words in another order are not the same text', () => {
    expect(hamming(simhash('the dog bit the man today'), simhash('today the man bit the dog'))).toBeGreaterThan(3);
  });

  it('distance: 0 to 64, symmetric', () => {
    expect(hamming('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hamming('8000000000000001', '0000000000000000')).toBe(2);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (x, y) => {
        const hx = x.toString(16).padStart(16, '0');
        const hy = y.toString(16).padStart(16, '0');
        let bits = 0;
        for (let d = x ^ y; d > 0n; d >>= 1n) bits += Number(d & 1n);
        expect(hamming(hx, hy)).toBe(bits);
        expect(hamming(hy, hx)).toBe(bits);
      }),
      SEED,
    );
  });
});

const MASTODON_TAG = '<a href="https://m.example/tags/deals" class="mention hashtag" rel="tag">#<span>deals</span></a>';
const MASTODON_MENTION =
  '<span class="h-card"><a href="https://m.example/@ana" class="u-url mention">@<span>ana</span></a></span>';
const MASTODON_LINK =
  '<a href="https://www.Shop.example/deal/?utm=1#top" rel="nofollow"><span class="invisible">https://www.</span><span>shop.example/deal/</span></a>';

describe('links and link-only posts', () => {
  it('links: anchors that are not hashtags or mentions, and bare URLs; host and path only', () => {
    expect(linksOf(`<p>${MASTODON_MENTION} look ${MASTODON_LINK} ${MASTODON_TAG}</p>`)).toEqual(['shop.example/deal']);
    expect(linksOf('<p>see https://x.example/a?b=1 and www.y.example/</p>')).toEqual(['x.example/a', 'y.example']);
    expect(linksOf('<p>no links here</p>')).toEqual([]);
  });

  it('link-only: nothing but links, hashtags and mentions (punctuation and emoji aside)', () => {
    expect(isLinkOnly(`<p>${MASTODON_LINK}</p>`)).toBe(true);
    expect(isLinkOnly(`<p>${MASTODON_MENTION} ${MASTODON_LINK} ${MASTODON_TAG} 🔥!!</p>`)).toBe(true);
    expect(isLinkOnly('<p>https://x.example/a #deal @bob@m.example</p>')).toBe(true);
    expect(isLinkOnly(`<p>Great deal: ${MASTODON_LINK}</p>`)).toBe(false);
    expect(isLinkOnly('<p>#1 fan</p>')).toBe(false);
    expect(isLinkOnly('')).toBe(false);
    expect(isLinkOnly('<p>🔥</p>')).toBe(false);
  });
});

describe('account', () => {
  const DAY = 86_400_000;
  const rule = (r: Partial<AccountRule>): AccountRule => ({
    id: 'r1',
    kind: 'account',
    action: 'hold',
    bot: false,
    ...r,
  });
  it('finds a bot, or an account younger than minAgeDays when it posted', () => {
    const post = { authorBot: true, authorCreatedAt: 0, createdAt: 3.5 * DAY };
    expect(accountFinding(rule({ bot: true }), post)).toBe('bot');
    expect(accountFinding(rule({ minAgeDays: 7 }), post)).toBe('new account (3 days)');
    expect(accountFinding(rule({ minAgeDays: 3 }), post)).toBeNull();
    expect(accountFinding(rule({ minAgeDays: 7 }), { ...post, createdAt: 0.5 * DAY })).toBe('new account (0 days)');
    expect(accountFinding(rule({ minAgeDays: 7 }), { ...post, createdAt: 1.5 * DAY })).toBe('new account (1 day)');
    // where the network does not say, nothing is found
    expect(
      accountFinding(rule({ bot: true, minAgeDays: 7 }), { authorBot: false, authorCreatedAt: null, createdAt: 0 }),
    ).toBeNull();
  });

  it('explains itself through the compiled rules', () => {
    const rules = compileRules(completeRules([{ kind: 'account', action: 'reject', bot: true }]));
    const row = {
      content: '<p>beep</p>',
      author_name: 'Bot',
      username: 'bot@m.example',
      network_name: 'Mastodon',
      media: 'text' as const,
      repost: 0,
      reply: 0,
      sensitive: 0,
      author_bot: 1,
      created_at: 0,
      author_created_at: null,
    };
    expect(rules.judge(ruleSubjectOf(row))).toEqual({
      state: 'rejected',
      by: 'rule:r1',
      reason: "rejected: account 'bot'",
      detail: { rule: 'r1', kind: 'account', label: 'bot', score: null, threshold: null, model: null },
    });
    expect(rules.judge(ruleSubjectOf({ ...row, author_bot: 0 }))).toBeNull();
  });
});

describe('history judge', () => {
  const MIN = 60_000;
  const post = (key: number, minute: number, text: string, username = `u${key}`) =>
    historyPost(
      key,
      { created_at: minute * MIN, content: `<p>${text}</p>`, username, author_name: '', network_name: 'Mastodon' },
      null,
      true,
    );
  const run = (rules: Rule[], posts: ReturnType<typeof post>[]) => {
    const judge = new HistoryJudge(rules);
    return posts.map((p) => {
      const found = judge.judge(p);
      judge.add(p);
      return found && { rule: found.rule.id, label: found.detail.label, score: found.detail.score };
    });
  };
  const [dup] = completeRules([{ kind: 'duplicate', action: 'hold', within: 10 }]) as Rule[];
  const SAME = 'claim your free prize at the link below';

  it('duplicate: later repeats within the window name the earliest post they repeat; the first is never matched', () => {
    expect(run([dup!], [post(1, 0, SAME), post(2, 1, SAME), post(3, 2, SAME.toUpperCase())])).toEqual([
      null,
      { rule: 'r1', label: '1', score: 0 },
      { rule: 'r1', label: '1', score: 0 },
    ]);
    // past the window (10 minutes), and texts too short to compare
    expect(run([dup!], [post(1, 0, SAME), post(2, 10, SAME), post(3, 11, 'hi'), post(4, 12, 'hi')])).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('burst: the post that makes N within M minutes, and every one after it in the window', () => {
    const burst: Rule = { id: 'b', kind: 'burst', action: 'hold', by: 'author', count: 3, minutes: 2 };
    const found = run(
      [burst],
      [0, 0.5, 1, 1.5, 5, 5.5].map((m, i) => post(i + 1, m, `text number ${i} of many`, 'ana')),
    );
    expect(found.map((f) => f?.score ?? null)).toEqual([null, null, 3, 4, null, null]);
    expect(found[2]).toEqual({ rule: 'b', label: '@ana', score: 3 });
    const byLink: Rule = { id: 'l', kind: 'burst', action: 'hold', by: 'link', count: 2, minutes: 5 };
    expect(
      run(
        [byLink],
        [post(1, 0, 'see https://shop.example/x now'), post(2, 1, 'also <a href="https://shop.example/x/">this</a>')],
      ),
    ).toEqual([null, { rule: 'l', label: 'shop.example/x', score: 2 }]);
  });

  it('asks only the history rules placed before the rule that already decided', () => {
    const judge = new HistoryJudge([{ id: 'k', kind: 'keyword', action: 'approve', words: ['x'], match: 'any' }, dup!]);
    judge.add(post(1, 0, SAME));
    expect(judge.judge(post(2, 1, SAME), 0)).toBeNull();
    expect(judge.judge(post(2, 1, SAME), 2)?.rule.id).toBe('r1');
  });
});
