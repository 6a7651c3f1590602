// A post's rights, where its details are shown (the post's page): the state
// and whether it keeps the post off its wall, the request and the answer with
// their links and times, the evidence trail (every step, oldest first), and
// for a moderator: asking (when it may be asked) and an answer recorded by
// hand (a network Wallery cannot reply on, an answer by e-mail).
import { useState } from 'react';
import type { Post } from '../../api/client';
import { usePostRights, useRecordAnswer, type PostRights, type RightsAnswer } from '../../api/queries/rights';
import { useMe } from '../../auth';
import { FormActions, Options, SelectField, TextAreaField, TextField } from '../../ui/fields';
import { onSubmit, useForm } from '../../ui/form';
import { Button, Dialog, ErrorNote, QueryStatus, When } from '../../ui/kit';
import { useAskRights } from './RequestRights';
import { RightsBadge } from './RightsBadge';
import { eventTitle, methodWords } from './words';
import './Rights.css';

const external = (url: string | null | undefined): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

function Link({ url, children }: { url: string | null | undefined; children: string }) {
  const href = external(url);
  if (!href) return null;
  return (
    <a href={href} rel="noopener noreferrer" target="_blank">
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

export function PostRightsPanel({ post, say }: { post: Post; say(message: string): void }) {
  const me = useMe();
  const rights = usePostRights(post.wallId, post.id);
  const mayAsk = me.can('POST /walls/{wallId}/rights/requests');
  const mayRecord = me.can('POST /walls/{wallId}/posts/{postId}/rights/answer');
  const ask = useAskRights(post.wallId, say);
  const [recording, setRecording] = useState(false);
  const r = rights.data;
  const mayBeAsked = r !== undefined && (r.state === null || r.state === 'expired') && !r.optedOut;

  return (
    <section className="panel post-rights" aria-labelledby="post-rights-title">
      <h2 id="post-rights-title">Rights</h2>
      <QueryStatus query={rights} what="the post’s rights" />
      {r && (
        <>
          <p className="post-state">
            {r.state === null && !r.held && <span className="badge">Not asked</span>}
            <RightsBadge rights={{ state: r.state, held: r.held }} />
          </p>
          {r.held && (
            <p className="hint">
              The wall requires rights this post lacks: it is not shown publicly until they are granted.
            </p>
          )}
          {r.optedOut && (
            <p className="hint">
              {r.author} is on the opt-out list: Wallery never asks them (again). Take them off it on the Rights screen.
            </p>
          )}
          <RightsFacts rights={r} />
          {r.events.length > 0 && (
            <>
              <h3>Evidence</h3>
              <ol className="rights-trail" aria-label="Evidence, oldest first">
                {r.events.map((e, i) => (
                  <li key={i} data-kind={e.kind}>
                    <p>
                      <strong>{eventTitle(e)}</strong>
                    </p>
                    <p className="when">
                      <When iso={e.at} /> <Link url={e.url}>link</Link>
                    </p>
                    {e.text && <p className="rights-text">{e.text}</p>}
                    {e.note && <p>Note: {e.note}</p>}
                  </li>
                ))}
              </ol>
            </>
          )}
          {ask.view}
          <div className="post-actions-row">
            {mayAsk && mayBeAsked && (
              <Button variant="primary" onClick={() => ask.ask([post])} disabled={ask.pending}>
                Request rights
              </Button>
            )}
            {mayRecord && <Button onClick={() => setRecording(true)}>Record answer</Button>}
          </div>
          <Dialog title="Record the author’s answer" open={recording} onClose={() => setRecording(false)}>
            <RecordAnswer
              rights={r}
              onDone={(message) => {
                setRecording(false);
                if (message) say(message);
              }}
            />
          </Dialog>
        </>
      )}
    </section>
  );
}

function RightsFacts({ rights: r }: { rights: PostRights }) {
  if (r.requestedAt === null && r.answeredAt === null) return null;
  return (
    <dl className="rights-facts">
      {r.requestedAt && (
        <>
          <dt>Asked</dt>
          <dd>
            <When iso={r.requestedAt} /> {methodWords(r.method, r.network)}
            {r.requestedBy && ` · by ${r.requestedBy}`} <Link url={r.requestUrl}>See the request</Link>
          </dd>
        </>
      )}
      {r.requestText && (
        <>
          <dt>Request</dt>
          <dd className="rights-text">{r.requestText}</dd>
        </>
      )}
      {r.state === 'requested' && r.expiresAt && (
        <>
          <dt>Expires</dt>
          <dd>
            <When iso={r.expiresAt} />
          </dd>
        </>
      )}
      {r.answeredAt && (
        <>
          <dt>Answered</dt>
          <dd>
            <When iso={r.answeredAt} />
            {r.decidedBy && ` · ${r.decidedBy === 'reply' ? 'by the author' : `recorded by ${r.decidedBy}`}`}{' '}
            <Link url={r.answerUrl}>See the answer</Link>
          </dd>
        </>
      )}
      {r.answerText && (
        <>
          <dt>Answer</dt>
          <dd className="rights-text">{r.answerText}</dd>
        </>
      )}
      {r.note && (
        <>
          <dt>Note</dt>
          <dd>{r.note}</dd>
        </>
      )}
    </dl>
  );
}

const ANSWERS = {
  granted: 'Granted: the author agreed',
  declined: 'Declined: the author said no (never asked again)',
  revoked: 'Revoked: the author took the grant back',
} as const;

function RecordAnswer({ rights, onDone }: { rights: PostRights; onDone(message?: string): void }) {
  const record = useRecordAnswer(rights.wallId, rights.postId, {
    onSuccess: (saved) => onDone(`Answer recorded: rights ${saved.state ?? 'unchanged'}.`),
  });
  const { form, field } = useForm({ state: 'granted' as RightsAnswer['state'], url: '', note: '' }, record.error);
  // a grant is taken back only once there is one
  const choices = Object.entries(ANSWERS).filter(([state]) => state !== 'revoked' || rights.state === 'granted');
  return (
    <form
      noValidate
      onSubmit={onSubmit(() =>
        record.mutate({
          state: form.state,
          ...(form.url.trim() ? { url: form.url.trim() } : {}),
          ...(form.note.trim() ? { note: form.note.trim() } : {}),
        }),
      )}
    >
      <p>For an answer Wallery cannot read: on a network asked by hand, or by e-mail. It is kept in the evidence.</p>
      <ErrorNote error={record.error} title="The answer was not recorded" />
      <SelectField label="Answer" {...field('state')}>
        <Options of={choices} />
      </SelectField>
      <TextField
        label="Link to the answer"
        type="url"
        inputMode="url"
        {...field('url')}
        hint="Where the author answered (a comment, a message); optional."
      />
      <TextAreaField label="Note" rows={3} {...field('note')} hint="E.g. “agreed by e-mail on 3 May”; optional." />
      <FormActions submit="Record answer" pending={record.isPending} onCancel={() => onDone()} />
    </form>
  );
}
