// The authors never asked again: those who declined, and those an operator
// put on the list (an e-mail, a block); added by network and handle, taken
// off for an author who asked to be asked again.
import { useState } from 'react';
import { useAddOptOut, useOptOuts, useRemoveOptOut, type OptOut } from '../../api/queries/rights';
import { FormActions, TextField } from '../../ui/fields';
import { onSubmit, useForm } from '../../ui/form';
import { Button, ErrorNote, QueryRows, When } from '../../ui/kit';

const REASONS: Record<OptOut['reason'], string> = {
  declined: 'declined',
  blocked: 'blocked the brand',
  operator: 'added by hand',
};

export function OptOuts({
  accountId,
  mayEdit,
  say,
}: {
  accountId: number;
  mayEdit: boolean;
  say(message: string): void;
}) {
  const list = useOptOuts(accountId);
  const rows = list.data ?? [];
  const [adding, setAdding] = useState(false);
  const remove = useRemoveOptOut(accountId, {
    onSuccess: (removed) => say(`${removed.author} taken off the opt-out list: they may be asked again.`),
  });
  return (
    <section className="panel" aria-labelledby="rights-optouts-title">
      <h2 id="rights-optouts-title">Opt-out list</h2>
      <p className="hint">Authors here are never asked again, by a moderator or by a wall’s asking rule.</p>
      <ErrorNote error={remove.error} title="The author was not taken off the list" />
      <QueryRows query={list} what="the opt-out list" rows={rows} empty={<p>Nobody has opted out.</p>}>
        <ul className="rights-optouts" aria-label="Authors never asked again">
          {rows.map((o) => (
            <li key={o.author} data-author={o.author}>
              <p className="who">
                <strong>{o.author}</strong> · {REASONS[o.reason]} <When iso={o.createdAt} />
                {o.note && <span className="hint"> · {o.note}</span>}
              </p>
              {mayEdit && (
                <Button onClick={() => remove.mutate(o.author)} disabled={remove.isPending}>
                  Remove<span className="sr-only"> {o.author} from the list</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
      </QueryRows>
      {mayEdit &&
        (adding ? (
          <AddOptOut
            accountId={accountId}
            onDone={(message) => {
              setAdding(false);
              if (message) say(message);
            }}
          />
        ) : (
          <Button onClick={() => setAdding(true)}>Add an author</Button>
        ))}
    </section>
  );
}

function AddOptOut({ accountId, onDone }: { accountId: number; onDone(message?: string): void }) {
  const add = useAddOptOut(accountId, {
    onSuccess: (made) => onDone(`${made.author} is on the opt-out list: never asked again.`),
  });
  const { form, field } = useForm({ network: 'mastodon', username: '', note: '' }, add.error);
  return (
    <form
      noValidate
      aria-label="Add an author to the opt-out list"
      onSubmit={onSubmit(() =>
        add.mutate({
          network: form.network.trim(),
          username: form.username.trim(),
          ...(form.note.trim() ? { note: form.note.trim() } : {}),
        }),
      )}
    >
      <ErrorNote error={add.error} title="The author was not added" />
      <div className="rights-optout-form">
        <TextField label="Network" {...field('network')} hint="mastodon, bluesky, instagram…" />
        <TextField label="Handle" {...field('username')} hint="As their posts show it." />
        <TextField label="Note" {...field('note')} hint="Optional." />
      </div>
      <FormActions submit="Add to the list" pending={add.isPending} onCancel={() => onDone()} />
    </form>
  );
}
