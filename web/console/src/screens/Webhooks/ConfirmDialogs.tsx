// The writes an endpoint's row confirms first: a new signing secret (the
// old one signing on for 24 hours, or not), and deleting the endpoint.
import { useState } from 'react';
import { useDeleteWebhook, useRotateSecret } from '../../api/queries/webhooks';
import type { NewWebhook, Webhook } from '../../api/records';
import { CheckboxField } from '../../ui/fields';
import { Button, ConfirmDelete, ErrorNote } from '../../ui/kit';

export function RotateSecret({ hook, onDone }: { hook: Webhook; onDone(made?: NewWebhook): void }) {
  // a secret that leaked must stop signing at once, not in 24 hours
  const [expireOldNow, setExpireOldNow] = useState(false);
  const rotate = useRotateSecret(hook, { onSuccess: (made) => onDone(made) });
  return (
    <div>
      <p>
        Make a new signing secret for <span className="mono hook-url">{hook.url}</span>? The next deliveries are signed
        with it;{' '}
        {expireOldNow ? (
          <>the old secret signs no more: a receiver still checking with it refuses them until it has the new one.</>
        ) : (
          <>
            for 24 hours the old secret signs too (a second <code>v1</code>), so your receiver can switch without a gap.
          </>
        )}
      </p>
      <CheckboxField
        label="Stop signing with the old secret now (it leaked)"
        checked={expireOldNow}
        onChange={(e) => setExpireOldNow(e.currentTarget.checked)}
      />
      <ErrorNote error={rotate.error} title="The secret was not rotated" />
      <div className="form-actions">
        <Button variant="danger" onClick={() => rotate.mutate(expireOldNow)} disabled={rotate.isPending}>
          Rotate secret
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </div>
  );
}

export function DeleteWebhook({ hook, onDone }: { hook: Webhook; onDone(message?: string): void }) {
  const remove = useDeleteWebhook(hook, { onSuccess: () => onDone(`Webhook to ${hook.url} deleted.`) });
  return (
    <ConfirmDelete thing="webhook" mutation={remove} onCancel={() => onDone()}>
      Delete the webhook to <span className="mono hook-url">{hook.url}</span> and its delivery log? Events from now on
      are not sent to it. This cannot be undone.
    </ConfirmDelete>
  );
}
