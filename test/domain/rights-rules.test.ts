// The `rights` rule on its own: a post matches when its rights state (none
// when never asked) is listed; the decision's reason says the state; the
// choice made when a post's rights change reads only rights rules.
import { describe, expect, it } from 'vitest';
import {
  compileRules,
  completeRules,
  rightsRuleDecision,
  ruleSubjectOf,
  type Rule,
  type RuleColumns,
  type RuleSubject,
} from '../../src/domain/rules.js';

const post = (over: Partial<RuleSubject> = {}): RuleSubject => ({
  content: 'A quiet morning at the harbour',
  authorName: 'Ana Lima',
  username: 'ana@m.example',
  network: 'Mastodon',
  media: 'text',
  ...over,
});
const granted: Rule = { id: 'g', kind: 'rights', action: 'approve', states: ['granted'] };
const refused: Rule = { id: 'n', kind: 'rights', action: 'reject', states: ['declined', 'revoked'] };

describe('the rights rule', () => {
  it('matches a post whose rights state is listed, with a reason that says the state', () => {
    const rules = compileRules([granted, refused]);
    expect(rules.decide(post({ rights: 'granted' }), 'manual')).toEqual({
      state: 'approved',
      by: 'rule:g',
      reason: 'rights rule: rights granted',
    });
    expect(rules.decide(post({ rights: 'revoked' }), 'auto')).toEqual({
      state: 'rejected',
      by: 'rule:n',
      reason: 'rights rule: rights revoked',
    });
    expect(rules.decide(post({ rights: 'declined' }), 'auto').by).toBe('rule:n');
    // not listed: the mode decides
    for (const rights of ['requested', 'expired', null, undefined] as const)
      expect(rules.decide(post({ rights }), 'manual')).toEqual({ state: 'pending', by: null, reason: null });
  });

  it('none is a post never asked: null, or absent (a post arriving)', () => {
    const never: Rule = { id: 'q', kind: 'rights', action: 'hold', states: ['none', 'expired'] };
    const rules = compileRules([never]);
    expect(rules.judge(post())).toEqual({
      state: 'pending',
      by: 'rule:q',
      reason: 'rights rule: rights never asked for',
    });
    expect(rules.judge(post({ rights: null }))?.by).toBe('rule:q');
    expect(rules.judge(post({ rights: 'expired' }))?.reason).toBe('rights rule: rights request expired');
    expect(rules.judge(post({ rights: 'granted' }))).toBeNull();
  });

  it('takes its place in the list: the first rule that matches decides', () => {
    const keyword: Rule = { id: 'k', kind: 'keyword', action: 'reject', words: ['harbour'], match: 'any' };
    expect(compileRules([keyword, granted]).judge(post({ rights: 'granted' }))?.by).toBe('rule:k');
    expect(compileRules([granted, keyword]).judge(post({ rights: 'granted' }))?.by).toBe('rule:g');
  });

  it('the stored rights_state is what the rule reads (null: none)', () => {
    const row: RuleColumns = {
      content: '<p>hello</p>',
      created_at: 0,
      author_created_at: null,
      author_name: 'Ana',
      username: 'ana',
      network_name: 'Mastodon',
      media: 'text',
      repost: 0,
      reply: 0,
      sensitive: 0,
      author_bot: 0,
      rights_state: 'declined',
    };
    expect(ruleSubjectOf(row).rights).toBe('declined');
    expect(ruleSubjectOf({ ...row, rights_state: null }).rights).toBeUndefined();
    expect(compileRules([refused]).judge(ruleSubjectOf(row))?.state).toBe('rejected');
  });

  it('completeRules keeps the states and assigns the id', () => {
    expect(completeRules([{ kind: 'rights', action: 'approve', states: ['granted', 'none'] }])).toEqual([
      { id: 'r1', kind: 'rights', action: 'approve', states: ['granted', 'none'] },
    ]);
  });

  it('a change of rights: the first rights rule listing the new state, other kinds never read', () => {
    const keyword: Rule = { id: 'k', kind: 'keyword', action: 'reject', words: ['harbour'], match: 'any' };
    const also: Rule = { id: 'also', kind: 'rights', action: 'hold', states: ['granted'] };
    const rules = [keyword, granted, also, refused];
    expect(rightsRuleDecision(rules, 'granted')).toEqual({
      state: 'approved',
      by: 'rule:g',
      reason: 'rights rule: rights granted',
    });
    expect(rightsRuleDecision(rules, 'declined')).toEqual({
      state: 'rejected',
      by: 'rule:n',
      reason: 'rights rule: rights declined',
    });
    expect(rightsRuleDecision(rules, 'requested')).toBeNull();
    expect(rightsRuleDecision([keyword], 'granted')).toBeNull();
    expect(rightsRuleDecision([{ id: 'z', kind: 'rights', action: 'hold', states: ['none'] }], null)?.by).toBe(
      'rule:z',
    );
  });
});
