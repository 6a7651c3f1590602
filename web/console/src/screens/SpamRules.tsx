// The spam rules in the rule editor (Rules.tsx): their names, a rule in one
// line, the fields that add one, and an inline editor for one in the list —
// duplicates (SimHash distance within a window), bursts (one author or link
// N times in M minutes), link-only posts, and bot or new accounts.
import { useState } from 'react';
import type { RulesBody } from '../api/client';
import { CheckboxField, SelectField, TextField } from '../ui/fields';
import { onSubmit } from '../ui/form';
import { Button } from '../ui/kit';

type RuleIn = RulesBody['rules'][number];
export type SpamKind = 'duplicate' | 'burst' | 'link_only' | 'account';
export type SpamRule = Extract<RuleIn, { kind: SpamKind }>;
// blur is an action of image rules only: a spam rule holds, rejects or approves
type Action = Exclude<NonNullable<RuleIn['action']>, 'blur'>;

export const SPAM_KIND_NAMES: Record<SpamKind, string> = {
  duplicate: 'Repeated posts',
  burst: 'Bursts of posts',
  link_only: 'Only links, hashtags or mentions',
  account: 'Bot or new accounts',
};

export const isSpamKind = (kind: string): kind is SpamKind => Object.hasOwn(SPAM_KIND_NAMES, kind);
export const isSpamRule = (rule: RuleIn): rule is SpamRule => isSpamKind(rule.kind);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** 2 → `2nd`, 11 → `11th`, 23 → `23rd`. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const end = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${end}`;
}

/** A spam rule in one line. */
export function describeSpam(rule: SpamRule): string {
  switch (rule.kind) {
    case 'duplicate':
      return `Posts repeating one of the last ${plural(rule.within, 'minute')} (within ${plural(rule.distance ?? 3, 'bit')})`;
    case 'burst':
      return `The ${ordinal(rule.count)} post and after of one ${rule.by} within ${plural(rule.minutes, 'minute')}`;
    case 'link_only':
      return 'Posts with nothing but links, hashtags or mentions';
    case 'account': {
      const parts = [
        ...(rule.bot ? ['accounts flagged as bots'] : []),
        ...(rule.minAgeDays !== undefined ? [`accounts younger than ${plural(rule.minAgeDays, 'day')}`] : []),
      ];
      return `Posts by ${parts.join(' or ')}`;
    }
  }
}

/** What the fields hold while a spam rule is added or edited (text as typed). */
export interface SpamDraft {
  within: string;
  distance: string;
  by: 'author' | 'link';
  count: string;
  minutes: string;
  bot: boolean;
  minAgeDays: string;
}

export const SPAM_DRAFT: SpamDraft = {
  within: '60',
  distance: '3',
  by: 'author',
  count: '5',
  minutes: '1',
  bot: true,
  minAgeDays: '',
};

/** A rule's fields as the form shows them. */
export function spamDraftOf(rule: SpamRule): SpamDraft {
  switch (rule.kind) {
    case 'duplicate':
      return { ...SPAM_DRAFT, within: String(rule.within), distance: String(rule.distance ?? 3) };
    case 'burst':
      return { ...SPAM_DRAFT, by: rule.by, count: String(rule.count), minutes: String(rule.minutes) };
    case 'account':
      return { ...SPAM_DRAFT, bot: rule.bot, minAgeDays: rule.minAgeDays === undefined ? '' : String(rule.minAgeDays) };
    default:
      return SPAM_DRAFT;
  }
}

const whole = (s: string, min: number, max: number) =>
  /^\d+$/.test(s.trim()) && Number(s) >= min && Number(s) <= max ? Number(s) : null;

/** The rule the fields make, or what is wrong with them. */
export function buildSpam(kind: SpamKind, action: Action, d: SpamDraft, id?: string): SpamRule | string {
  const keep = id === undefined ? {} : { id };
  switch (kind) {
    case 'duplicate': {
      const within = whole(d.within, 1, 1440);
      const distance = whole(d.distance, 0, 32);
      if (within === null) return 'Enter a window of 1 to 1440 minutes.';
      if (distance === null) return 'Enter a distance of 0 to 32 bits.';
      return { ...keep, kind, action, within, distance };
    }
    case 'burst': {
      const count = whole(d.count, 2, 10000);
      const minutes = whole(d.minutes, 1, 1440);
      if (count === null) return 'Enter a number of posts from 2 to 10000.';
      if (minutes === null) return 'Enter a window of 1 to 1440 minutes.';
      return { ...keep, kind, action, by: d.by, count, minutes };
    }
    case 'link_only':
      return { ...keep, kind, action };
    case 'account': {
      const age = d.minAgeDays.trim() === '' ? undefined : whole(d.minAgeDays, 1, 3650);
      if (age === null) return 'Enter an age of 1 to 3650 days, or leave it empty.';
      if (!d.bot && age === undefined) return 'Choose bot accounts, an age, or both.';
      return { ...keep, kind, action, bot: d.bot, ...(age === undefined ? {} : { minAgeDays: age }) };
    }
  }
}

/** The fields of a spam rule's kind. */
export function SpamRuleFields({
  kind,
  value,
  onChange,
  error,
}: {
  kind: SpamKind;
  value: SpamDraft;
  onChange(next: SpamDraft): void;
  error?: string | undefined;
}) {
  const set = (patch: Partial<SpamDraft>) => onChange({ ...value, ...patch });
  switch (kind) {
    case 'duplicate':
      return (
        <>
          <TextField
            label="Within (minutes)"
            inputMode="numeric"
            value={value.within}
            onChange={(e) => set({ within: e.target.value })}
            hint="How far back an earlier post counts."
            error={error}
          />
          <TextField
            label="Distance (bits)"
            inputMode="numeric"
            value={value.distance}
            onChange={(e) => set({ distance: e.target.value })}
            hint="0: the same words in the same order; 3 (default): nearly so; higher catches looser copies of long texts."
          />
        </>
      );
    case 'burst':
      return (
        <>
          <SelectField
            label="Count by"
            value={value.by}
            onChange={(e) => set({ by: e.target.value as 'author' | 'link' })}
          >
            <option value="author">One author</option>
            <option value="link">One link</option>
          </SelectField>
          <TextField
            label="Posts"
            inputMode="numeric"
            value={value.count}
            onChange={(e) => set({ count: e.target.value })}
            hint="From this many posts in the window on, each is matched."
            error={error}
          />
          <TextField
            label="Minutes"
            inputMode="numeric"
            value={value.minutes}
            onChange={(e) => set({ minutes: e.target.value })}
          />
        </>
      );
    case 'account':
      return (
        <>
          <CheckboxField
            label="Bot accounts (where the network flags them)"
            checked={value.bot}
            onChange={(e) => set({ bot: e.target.checked })}
          />
          <TextField
            label="Youngest account (days)"
            inputMode="numeric"
            value={value.minAgeDays}
            onChange={(e) => set({ minAgeDays: e.target.value })}
            hint="Accounts made fewer days before the post match (empty: age does not count)."
            error={error}
          />
        </>
      );
    default:
      return null;
  }
}

/** One spam rule of the list, edited in place: its action and fields. */
export function SpamRuleEditor({
  rule,
  onSave,
  onCancel,
}: {
  rule: SpamRule;
  onSave(rule: SpamRule): void;
  onCancel(): void;
}) {
  const [action, setAction] = useState<Action>(rule.action);
  const [draft, setDraft] = useState<SpamDraft>(() => spamDraftOf(rule));
  const [problem, setProblem] = useState<string | undefined>();
  const submit = onSubmit(() => {
    const next = buildSpam(rule.kind, action, draft, rule.id);
    if (typeof next === 'string') setProblem(next);
    else onSave(next);
  });
  return (
    <form className="panel" onSubmit={submit} noValidate aria-label={`Edit rule: ${SPAM_KIND_NAMES[rule.kind]}`}>
      <SelectField label="Action" value={action} onChange={(e) => setAction(e.target.value as Action)}>
        <option value="hold">Hold for review</option>
        <option value="reject">Reject</option>
        <option value="approve">Approve</option>
      </SelectField>
      <SpamRuleFields kind={rule.kind} value={draft} onChange={setDraft} error={problem} />
      <div className="actions">
        <Button type="submit" variant="primary">
          Done
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
