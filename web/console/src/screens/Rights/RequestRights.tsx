// Asking for the rights to posts picked in a list (the queue's selection):
// one call for all of them, then what happened in words — how many were
// asked (announced), each post not asked with the reason (a note kept until
// dismissed) — and, for the posts Wallery cannot ask on their network (asked
// by hand), a dialog with each request's text to copy and the link to the
// post to answer it on.
import { useRef, useState } from 'react';
import type { Post } from '../../api/client';
import { useRequestRights, type RequestOutcome, type RequestOutcomes } from '../../api/queries/rights';
import { CopyButton } from '../../ui/Copy';
import { authorOf } from '../../ui/PostByline';
import { Button, Dialog, ErrorNote } from '../../ui/kit';
import './Rights.css';

interface Asked {
  result: RequestOutcomes;
  /** the posts asked about, as they were listed */
  posts: Map<number, Post>;
}

/** Asks for posts' rights; `view` shows the summary and the by-hand dialog of the last request. */
export function useAskRights(wallId: number, say: (message: string) => void, onAsked?: () => void) {
  const [asked, setAsked] = useState<Asked | null>(null);
  const [manualOpen, setManualOpen] = useState(false);
  // the posts of the call on its way (the list may change meanwhile)
  const targets = useRef<Map<number, Post>>(new Map());
  const request = useRequestRights(wallId, {
    onSuccess: (result) => {
      setAsked({ result, posts: targets.current });
      setManualOpen(result.outcomes.some((o) => o.ok && o.method === 'manual'));
      say(summaryOf(result));
      onAsked?.();
    },
  });
  const ask = (posts: Post[]) => {
    targets.current = new Map(posts.map((p) => [p.id, p]));
    setAsked(null);
    request.mutate(posts.map((p) => p.id));
  };
  const view = (
    <>
      <ErrorNote error={request.error} title="Rights were not requested" />
      {asked && asked.result.outcomes.some((o) => !o.ok || o.method === 'manual') && (
        <RequestSummary
          asked={asked}
          onShowManual={() => setManualOpen(true)}
          onClose={() => {
            setAsked(null);
            setManualOpen(false);
          }}
        />
      )}
      <Dialog title="Send these requests by hand" open={manualOpen} onClose={() => setManualOpen(false)}>
        {asked && <ManualRequests asked={asked} onDone={() => setManualOpen(false)} />}
      </Dialog>
    </>
  );
  return { ask, pending: request.isPending, view };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "Rights requested for 2 posts: 1 by a reply, 1 to send by hand. 1 post not asked." */
export function summaryOf(result: RequestOutcomes): string {
  const byReply = result.outcomes.filter((o) => o.ok && o.method === 'reply').length;
  const byHand = result.outcomes.filter((o) => o.ok && o.method === 'manual').length;
  const not = result.outcomes.length - result.asked;
  const how = [byReply > 0 && `${byReply} by a reply`, byHand > 0 && `${byHand} to send by hand`].filter(Boolean);
  const first =
    result.asked === 0
      ? 'No rights were requested.'
      : `Rights requested for ${plural(result.asked, 'post')}: ${how.join(', ')}.`;
  return not > 0 ? `${first} ${plural(not, 'post')} not asked.` : first;
}

function whoOf(o: RequestOutcome, posts: Map<number, Post>): string {
  const post = posts.get(o.postId);
  return post ? authorOf(post) : `post ${o.postId}`;
}

function RequestSummary({
  asked: { result, posts },
  onShowManual,
  onClose,
}: {
  asked: Asked;
  onShowManual(): void;
  onClose(): void;
}) {
  const refused = result.outcomes.filter((o) => !o.ok);
  const manual = result.outcomes.filter((o) => o.ok && o.method === 'manual').length;
  return (
    <div
      className={`note ${refused.length > 0 ? 'note-warn' : 'note-done'} rights-summary`}
      data-testid="rights-summary"
    >
      {manual > 0 && (
        <p>
          <strong>{plural(manual, 'request')} to send by hand:</strong> Wallery cannot reply on{' '}
          {manual === 1 ? 'its network' : 'their networks'}.
        </p>
      )}
      {refused.length > 0 && (
        <p>
          <strong>{plural(refused.length, 'post')} not asked:</strong>
        </p>
      )}
      {refused.length > 0 && (
        <ul className="rights-outcomes" aria-label="Posts not asked">
          {refused.map((o) => (
            <li key={o.postId} data-post-id={o.postId}>
              {whoOf(o, posts)}: {o.reason ?? o.problem}
            </li>
          ))}
        </ul>
      )}
      <div className="form-actions">
        {manual > 0 && <Button onClick={onShowManual}>Show the requests to send by hand</Button>}
        <Button onClick={onClose}>Dismiss</Button>
      </div>
    </div>
  );
}

function ManualRequests({ asked: { result, posts }, onDone }: { asked: Asked; onDone(): void }) {
  const manual = result.outcomes.filter((o) => o.ok && o.method === 'manual');
  return (
    <>
      <p>
        Wallery cannot reply on these networks. Send each author the text below on the post (a comment or a direct
        message), then record their answer on the post’s page.
      </p>
      <ol className="rights-manual">
        {manual.map((o) => {
          const post = posts.get(o.postId);
          const link = post && /^https?:\/\//i.test(post.linkUrl) ? post.linkUrl : null;
          return (
            <li key={o.postId} data-post-id={o.postId}>
              <p>
                <strong>{whoOf(o, posts)}</strong>
                {post && ` on ${post.networkName}`}
              </p>
              <p className="rights-text">{o.text}</p>
              <p>
                <CopyButton text={o.text ?? ''} what={`request to ${whoOf(o, posts)}`} />{' '}
                {link && (
                  <a href={link} rel="noopener noreferrer" target="_blank">
                    Open the post<span className="sr-only"> by {whoOf(o, posts)} (opens in a new tab)</span>
                  </a>
                )}
              </p>
            </li>
          );
        })}
      </ol>
      <div className="form-actions">
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </>
  );
}
