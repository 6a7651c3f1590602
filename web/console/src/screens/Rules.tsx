// A wall's moderation rules: read them in order, add, reorder, remove, and
// preview the change before saving (PUT …/rules?dryRun=true: "this would
// hold 37 posts"); save; apply to the posts already stored.
import { useEffect, useState } from 'react';
import type { RightsRuleState } from '../../../../src/domain/rules.js';
import { type ApiError, type Rules as RulesRecord, type RulesBody } from '../api/client';
import { useApplyRules, usePreviewRules, useRules, useSaveRules } from '../api/queries/rules';
import { useMe } from '../auth';
import { CheckboxField, Options, SelectField, TextField } from '../ui/fields';
import { onSubmit } from '../ui/form';
import { Announce, Button, Empty, ErrorNote, QueryStatus } from '../ui/kit';
import { useUnsavedGuard } from '../ui/useUnsavedGuard';
import { WallHead } from '../ui/WallNav';
import {
  buildSpam,
  describeSpam,
  isSpamKind,
  isSpamRule,
  SPAM_DRAFT,
  SPAM_KIND_NAMES,
  SpamRuleEditor,
  SpamRuleFields,
  type SpamDraft,
} from './SpamRules';

type RuleIn = RulesBody['rules'][number];
type Kind = RuleIn['kind'];
// a provider rule may leave its action out (hold)
type Action = NonNullable<RuleIn['action']>;
type Counts = NonNullable<RulesRecord['counts']>;

const KIND_NAMES: Record<Kind, string> = {
  keyword: 'Words or phrases',
  author: 'Authors',
  profanity: 'Profanity',
  media: 'Missing media',
  repost: 'Reposts and boosts',
  reply: 'Replies',
  sensitive: 'Flagged sensitive',
  length: 'Short posts',
  language: 'Language',
  sentiment: 'Negative sentiment',
  // picture rules
  image: 'Unsafe pictures',
  similar_image: 'Repeated pictures',
  ...SPAM_KIND_NAMES,
  provider: 'Moderation provider',
  rights: 'Rights state',
};
/** A rights rule's states as its summary says them (“Posts whose rights are granted”), in the API's order. */
const RIGHTS_SAID: Record<RightsRuleState, string> = {
  none: 'never asked for',
  requested: 'requested',
  granted: 'granted',
  declined: 'declined',
  expired: 'expired (not answered)',
  revoked: 'revoked',
};
const RIGHTS_STATES = Object.keys(RIGHTS_SAID) as RightsRuleState[];
const either = (words: string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
const ACTION_NAMES: Record<Action, string> = {
  reject: 'reject',
  hold: 'hold for review',
  approve: 'approve',
  blur: 'hold, picture blurred',
};
const ACTION_VERB: Record<Action, string> = { reject: 'reject', hold: 'hold', approve: 'approve', blur: 'blur' };

/** A rule in one line. */
function describe(rule: RuleIn): string {
  switch (rule.kind) {
    case 'keyword':
      return `Posts with ${rule.match === 'all' ? 'all' : 'any'} of: ${rule.words.join(', ')}`;
    case 'author':
      return `Posts by ${rule.usernames.join(', ')}${rule.network ? ` on ${rule.network}` : ' on any network'}`;
    case 'profanity':
      return `Posts with profanity${rule.languages ? ` (${rule.languages.join(', ')})` : ''}`;
    case 'media':
      return `Posts without ${rule.require === 'any' ? 'an image or a video' : `a ${rule.require}`}`;
    case 'length':
      return `Posts shorter than ${rule.min} characters`;
    case 'repost':
      return 'Reposts and boosts';
    case 'reply':
      return 'Replies';
    case 'sensitive':
      return 'Posts flagged sensitive upstream';
    case 'language':
      return `Posts ${rule.mode === 'allow' ? 'not in' : 'in'} ${rule.languages.join(', ')}${rule.unknown === 'match' ? ', and posts whose language is unknown' : ''}`;
    case 'sentiment':
      return `English posts with a sentiment below ${rule.below}`;
    // picture rules
    case 'image':
      return `Pictures scored ${rule.threshold ?? 0.8} or more for ${(rule.classes ?? ['porn', 'hentai', 'sexy']).join(', ')}`;
    case 'similar_image':
      return `Pictures within ${rule.distance ?? 6} bits of one the wall showed in the last ${rule.withinHours ?? 24} h`;
    case 'rights':
      return `Posts whose rights are ${either(rule.states.map((s) => RIGHTS_SAID[s]))}`;
    case 'provider':
      return `Posts ${rule.provider} scores ${rule.threshold ?? 0.5} or more for ${rule.labels ? rule.labels.join(', ') : 'any label'} (no answer: held)`;
    default:
      return describeSpam(rule);
  }
}

const list = (text: string) =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

export function Rules({ wallId }: { wallId: number }) {
  const me = useMe();
  const mayEdit = me.can('PUT /walls/{wallId}/rules');
  const rules = useRules(wallId);
  const [draft, setDraft] = useState<RuleIn[] | null>(null);
  const [preview, setPreview] = useState<Counts | null>(null);
  const [said, setSaid] = useState('');
  // the rule edited in place (spam rules: SpamRules.tsx), by its place in the list
  const [editing, setEditing] = useState<number | null>(null);
  useEffect(() => {
    if (rules.data && draft === null) setDraft(rules.data.rules as RuleIn[]);
  }, [rules.data, draft]);
  const changed = draft !== null && JSON.stringify(draft) !== JSON.stringify(rules.data?.rules ?? []);
  useUnsavedGuard(mayEdit && changed, 'The rules you changed are not saved (a preview saves nothing).');

  const edit = (next: RuleIn[]) => {
    setDraft(next);
    setPreview(null);
    setEditing(null);
  };
  const dryRun = usePreviewRules(wallId, {
    onSuccess: (r) => {
      setPreview(r.counts ?? []);
      const total = (r.counts ?? []).reduce((n, c) => n + c.changed, 0);
      setSaid(`Preview: these rules would change ${total} pending post${total === 1 ? '' : 's'}. Nothing was saved.`);
    },
  });
  const save = useSaveRules(wallId, {
    onSuccess: (r) => {
      setDraft(r.rules as RuleIn[]);
      setSaid('Rules saved. New posts are judged by them; use “Apply to stored posts” for the ones already here.');
    },
  });
  const apply = useApplyRules(wallId, {
    onSuccess: (r) => {
      const total = r.counts.reduce((n, c) => n + c.changed, 0);
      setSaid(`Applied: ${r.checked} posts judged, ${total} changed.`);
    },
  });
  const error = (dryRun.error ?? save.error) as ApiError | null;

  return (
    <section className="screen">
      <WallHead wallId={wallId} screen="rules" />
      <p className="hint">
        Rules judge each new post in order: the first rule that matches decides (reject, hold for review or approve);
        posts no rule matches follow the wall’s moderation mode.
      </p>
      <Announce message={said} />
      <QueryStatus query={rules} what="rules" />
      {error && (
        <div className="note note-error" role="alert">
          <strong>The rules were not {save.error ? 'saved' : 'checked'}.</strong> {error.message}
          {error.fieldErrors?.length > 0 && (
            <ul>
              {error.fieldErrors.map((f) => (
                <li key={f.field}>
                  {f.field}: {f.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ErrorNote error={apply.error} title="The rules were not applied" />
      {draft && draft.length === 0 && (
        <Empty>
          <p>No rules: every post follows the wall’s moderation mode.</p>
        </Empty>
      )}
      {draft && draft.length > 0 && (
        <ol className="rules-list" aria-label="Rules, in order">
          {draft.map((rule, i) => {
            const count = preview?.find((c) => c.ruleId === rule.id) ?? (rule.id ? undefined : preview?.[i]);
            return (
              <li key={`${rule.id ?? 'new'}-${i}`} className="rule" data-rule={rule.id ?? `new-${i}`}>
                <div>
                  <strong>
                    {i + 1}. {KIND_NAMES[rule.kind]} → {ACTION_NAMES[rule.action ?? 'hold']}
                  </strong>
                  <span className="sub">
                    {describe(rule)}
                    {rule.id && ` · ${rule.id}`}
                  </span>
                  {count && (
                    <span className="rule-effect">
                      This would {ACTION_VERB[rule.action ?? 'hold']} {count.changed} post
                      {count.changed === 1 ? '' : 's'}
                      {count.matched !== count.changed && ` (${count.matched} match)`}
                    </span>
                  )}
                </div>
                {mayEdit && editing === i && isSpamRule(rule) && (
                  <SpamRuleEditor
                    rule={rule}
                    onSave={(next) => edit(draft.map((r, j) => (j === i ? next : r)))}
                    onCancel={() => setEditing(null)}
                  />
                )}
                {mayEdit && (
                  <div className="actions">
                    {isSpamRule(rule) && editing !== i && (
                      <Button onClick={() => setEditing(i)}>
                        Edit<span className="sr-only"> rule {i + 1}</span>
                      </Button>
                    )}
                    <Button onClick={() => edit(swap(draft, i, i - 1))} disabled={i === 0}>
                      Move up<span className="sr-only"> rule {i + 1}</span>
                    </Button>
                    <Button onClick={() => edit(swap(draft, i, i + 1))} disabled={i === draft.length - 1}>
                      Move down<span className="sr-only"> rule {i + 1}</span>
                    </Button>
                    <Button variant="danger" onClick={() => edit(draft.filter((_, j) => j !== i))}>
                      Remove<span className="sr-only"> rule {i + 1}</span>
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {mayEdit && draft && (
        <>
          <div className="form-actions">
            <Button onClick={() => dryRun.mutate(draft)} disabled={dryRun.isPending}>
              Preview (dry run)
            </Button>
            <Button variant="primary" onClick={() => save.mutate(draft)} disabled={!changed || save.isPending}>
              Save rules
            </Button>
            <Button onClick={() => apply.mutate()} disabled={changed || apply.isPending}>
              Apply to stored posts
            </Button>
            {changed && (
              <Button
                onClick={() => {
                  edit(rules.data!.rules as RuleIn[]);
                }}
              >
                Discard changes
              </Button>
            )}
          </div>
          <AddRule providers={rules.data?.providers ?? []} onAdd={(rule) => edit([...draft, rule])} />
        </>
      )}
    </section>
  );
}

function swap<T>(items: T[], i: number, j: number): T[] {
  const next = [...items];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

function AddRule({ providers, onAdd }: { providers: string[]; onAdd(rule: RuleIn): void }) {
  const [kind, setKind] = useState<Kind>('keyword');
  const [chosen, setAction] = useState<Action>('hold');
  const [words, setWords] = useState('');
  const [match, setMatch] = useState<'any' | 'all'>('any');
  const [network, setNetwork] = useState('');
  const [require, setRequire] = useState<'any' | 'image' | 'video'>('image');
  const [min, setMin] = useState('20');
  const [languages, setLanguages] = useState('en');
  const [mode, setMode] = useState<'allow' | 'block'>('allow');
  const [unknown, setUnknown] = useState<'pass' | 'match'>('pass');
  const [below, setBelow] = useState('-0.5');
  const [threshold, setThreshold] = useState('0.8');
  const [spam, setSpam] = useState<SpamDraft>(SPAM_DRAFT);
  const [provider, setProvider] = useState('');
  const [labels, setLabels] = useState('');
  const [providerThreshold, setProviderThreshold] = useState('0.5');
  const [rightsStates, setRightsStates] = useState<RightsRuleState[]>(['granted']);
  const [problem, setProblem] = useState<string | undefined>();

  function build(): RuleIn | string {
    // blur is an action of image rules only (the API refuses it elsewhere)
    if (kind === 'image') return buildImage(chosen);
    const action = chosen === 'blur' ? 'hold' : chosen;
    if (isSpamKind(kind)) return buildSpam(kind, action, spam);
    switch (kind) {
      case 'provider': {
        const name = provider || providers[0];
        if (!name) return 'No moderation provider is configured on this server (MODERATION_PROVIDERS).';
        if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(providerThreshold.trim())) return 'Enter a threshold from 0 to 1.';
        const counted = list(labels);
        return {
          kind,
          action,
          provider: name,
          labels: counted.length > 0 ? counted : null,
          threshold: Number(providerThreshold),
        };
      }
      case 'keyword':
        return list(words).length ? { kind, action, words: list(words), match } : 'Enter at least one word or phrase.';
      case 'author':
        return list(words).length
          ? { kind, action, usernames: list(words), network: network.trim() || null }
          : 'Enter at least one username.';
      case 'media':
        return { kind, action, require };
      case 'length':
        return /^\d+$/.test(min) && Number(min) >= 1
          ? { kind, action, min: Number(min) }
          : 'Enter a length of 1 or more.';
      case 'profanity':
        return { kind, action };
      case 'language': {
        const codes = list(languages.toLowerCase());
        return codes.length
          ? ({ kind, action, languages: codes, mode, unknown } as RuleIn)
          : 'Enter at least one language code, such as en.';
      }
      case 'rights':
        return rightsStates.length > 0 ? { kind, action, states: rightsStates } : 'Choose at least one rights state.';
      case 'sentiment': {
        const n = Number(below.replace('−', '-'));
        return below.trim() !== '' && Number.isFinite(n) && n >= -1 && n <= 1
          ? { kind, action, below: n }
          : 'Enter a number from -1 to 1, such as -0.5.';
      }
      default:
        return { kind, action } as RuleIn;
    }
  }
  function buildImage(action: Action): RuleIn | string {
    return /^(0(\.\d+)?|1(\.0+)?)$/.test(threshold.trim())
      ? { kind: 'image', action, threshold: Number(threshold) }
      : 'Enter a threshold from 0 to 1.';
  }
  const submit = onSubmit(() => {
    const rule = build();
    if (typeof rule === 'string') {
      setProblem(rule);
      return;
    }
    setProblem(undefined);
    setWords('');
    onAdd(rule);
  });
  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="add-rule">
      <h2 id="add-rule">Add a rule</h2>
      <SelectField label="Rule" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
        <Options of={Object.entries(KIND_NAMES)} />
      </SelectField>
      <SelectField label="Action" value={chosen} onChange={(e) => setAction(e.target.value as Action)}>
        <option value="hold">Hold for review</option>
        <option value="reject">Reject</option>
        <option value="approve">Approve</option>
        {kind === 'image' && <option value="blur">Hold, picture blurred until revealed</option>}
      </SelectField>
      {kind === 'image' && (
        <TextField
          label="Score threshold (0–1)"
          inputMode="decimal"
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
          error={problem}
        />
      )}
      {(kind === 'keyword' || kind === 'author') && (
        <TextField
          label={kind === 'keyword' ? 'Words or phrases (comma-separated)' : 'Usernames (comma-separated)'}
          value={words}
          onChange={(e) => setWords(e.target.value)}
          error={problem}
        />
      )}
      {kind === 'keyword' && (
        <SelectField label="Match" value={match} onChange={(e) => setMatch(e.target.value as 'any' | 'all')}>
          <option value="any">Any of them</option>
          <option value="all">All of them</option>
        </SelectField>
      )}
      {kind === 'author' && (
        <TextField
          label="Network (empty: every network)"
          value={network}
          onChange={(e) => setNetwork(e.target.value)}
        />
      )}
      {kind === 'media' && (
        <SelectField
          label="Required media"
          value={require}
          onChange={(e) => setRequire(e.target.value as 'any' | 'image' | 'video')}
        >
          <option value="image">An image</option>
          <option value="video">A video</option>
          <option value="any">An image or a video</option>
        </SelectField>
      )}
      {kind === 'length' && (
        <TextField
          label="Shortest text (characters)"
          inputMode="numeric"
          value={min}
          onChange={(e) => setMin(e.target.value)}
          error={problem}
        />
      )}
      {kind === 'language' && (
        <>
          <TextField
            label="Languages (ISO 639-1 codes, comma-separated)"
            value={languages}
            onChange={(e) => setLanguages(e.target.value)}
            error={problem}
          />
          <SelectField
            label="Languages listed are"
            value={mode}
            onChange={(e) => setMode(e.target.value as 'allow' | 'block')}
          >
            <option value="allow">Allowed: the rule acts on posts in other languages</option>
            <option value="block">Blocked: the rule acts on posts in these languages</option>
          </SelectField>
          <SelectField
            label="Language unknown (too short, mixed)"
            value={unknown}
            onChange={(e) => setUnknown(e.target.value as 'pass' | 'match')}
          >
            <option value="pass">Let the post pass</option>
            <option value="match">The rule acts on it</option>
          </SelectField>
        </>
      )}
      {kind === 'sentiment' && (
        <TextField
          label="Sentiment below (−1 hostile … 1 warm; English posts only)"
          inputMode="decimal"
          value={below}
          onChange={(e) => setBelow(e.target.value)}
          error={problem}
        />
      )}
      {kind === 'rights' && (
        <fieldset
          className="events-field"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'rights-states-error' : undefined}
        >
          <legend>Posts whose rights are</legend>
          <p className="hint">
            Judged again whenever a post’s rights change: the first rights rule listing the new state decides a pending
            or approved post.
          </p>
          {RIGHTS_STATES.map((state) => (
            <CheckboxField
              key={state}
              label={RIGHTS_SAID[state]}
              checked={rightsStates.includes(state)}
              onChange={(e) =>
                setRightsStates((now) =>
                  RIGHTS_STATES.filter((x) => (x === state ? e.target.checked : now.includes(x))),
                )
              }
            />
          ))}
          {problem && (
            <p className="field-error" id="rights-states-error">
              {problem}
            </p>
          )}
        </fieldset>
      )}
      {isSpamKind(kind) && <SpamRuleFields kind={kind} value={spam} onChange={setSpam} error={problem} />}
      {kind === 'provider' && (
        <>
          <SelectField
            label="Provider (post text and picture addresses are sent to it)"
            value={provider || providers[0] || ''}
            onChange={(e) => setProvider(e.target.value)}
          >
            {providers.length === 0 && <option value="">None configured (MODERATION_PROVIDERS)</option>}
            <Options of={providers.map((p) => [p, p])} />
          </SelectField>
          <TextField
            label="Labels that count (comma-separated; empty: any label)"
            value={labels}
            onChange={(e) => setLabels(e.target.value)}
          />
          <TextField
            label="Score threshold (0–1)"
            inputMode="decimal"
            value={providerThreshold}
            onChange={(e) => setProviderThreshold(e.target.value)}
            error={problem}
          />
        </>
      )}
      <Button type="submit">Add rule</Button>
    </form>
  );
}
