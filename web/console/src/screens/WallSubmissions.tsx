// The wall's submission page (attendee uploads), in the wall's edit dialog:
// on or off (the kill switch), the terms, the consent text (a change takes
// the next version), the moderation choice and the page's language; while
// it is on, its link to copy, its QR code and a printable poster. A form of
// its own below the wall's: its settings are a resource of their own.
import { useId, useMemo, useState } from 'react';
import { qrCode } from '../../../embed/qr';
import { useSaveSubmission, useSubmission, type Submission } from '../api/queries/submissions';
import { useMe } from '../auth';
import { CopyButton } from '../ui/Copy';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { Announce, Button, ErrorNote, QueryStatus } from '../ui/kit';

export function WallSubmissions({ wallId }: { wallId: number }) {
  const submission = useSubmission(wallId);
  const titleId = useId();
  return (
    <section className="wall-submissions" aria-labelledby={titleId}>
      <h3 id={titleId}>Submission page</h3>
      <p className="hint">
        Attendees post a photo or a few words from their phones, with no app and no account. Off until you turn it on.
      </p>
      <QueryStatus query={submission} what="the submission page" />
      {submission.data && <SubmissionForm saved={submission.data} />}
    </section>
  );
}

function SubmissionForm({ saved }: { saved: Submission }) {
  const me = useMe();
  const mayEdit = me.can('PUT /walls/{wallId}/submission');
  const [said, setSaid] = useState('');
  const save = useSaveSubmission(saved.wallId, {
    onSuccess: (now) =>
      setSaid(
        now.enabled
          ? `Submission page saved: it takes posts (consent version ${now.consentVersion}).`
          : 'Submission page saved: it is off.',
      ),
  });
  const { form, field, check } = useForm(
    {
      enabled: saved.enabled,
      terms: saved.terms,
      consentText: saved.consentText,
      moderation: saved.moderation as string,
      language: saved.language as string,
    },
    save.error,
  );
  const submit = onSubmit(() =>
    save.mutate({
      enabled: form.enabled,
      terms: form.terms,
      consentText: form.consentText,
      moderation: form.moderation as Submission['moderation'],
      language: form.language as Submission['language'],
    }),
  );
  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Submission page settings">
        <ErrorNote error={save.error} title="The submission page was not saved" />
        <fieldset disabled={!mayEdit}>
          <CheckboxField label="Take posts from attendees (off: the page closes at once)" {...check('enabled')} />
          <TextAreaField
            label="Consent text"
            {...field('consentText')}
            rows={3}
            hint={`The checkbox attendees tick. Each post keeps the text it agreed to; a change makes version ${saved.consentVersion + 1}.`}
          />
          <TextAreaField label="Terms" {...field('terms')} rows={3} hint="Shown above the consent box; may be empty." />
          <SelectField label="Moderation of uploads" {...field('moderation')}>
            <option value="queue">Every upload waits for a moderator</option>
            <option value="wall">As the wall’s own moderation and rules decide</option>
          </SelectField>
          <SelectField label="Page language" {...field('language')}>
            <option value="en">English</option>
            <option value="de">Deutsch</option>
            <option value="fr">Français</option>
          </SelectField>
        </fieldset>
        {mayEdit && (
          <div className="form-actions">
            <Button type="submit" variant="primary" disabled={save.isPending}>
              Save submission page
            </Button>
          </div>
        )}
        <Announce message={said} />
      </form>
      {saved.enabled ? (
        <SubmissionLink submission={saved} />
      ) : (
        <p className="hint">Its link, QR code and poster appear here once it takes posts.</p>
      )}
    </>
  );
}

/** The page's link to copy, its QR code, and the printable poster. */
function SubmissionLink({ submission }: { submission: Submission }) {
  const { size, path } = useMemo(() => qrCode(submission.url), [submission.url]);
  return (
    <div className="submission-link">
      <TextField label="Submission page link" value={submission.url} readOnly />
      <div className="form-actions">
        <CopyButton text={submission.url} what="submission page link" />
        <a className="btn" href={submission.posterUrl} download={`wall-${submission.wallId}-poster.svg`}>
          Download poster (SVG)
        </a>
        <a className="btn" href={submission.url} target="_blank" rel="noopener noreferrer">
          Open the page<span className="sr-only"> (new tab)</span>
        </a>
      </div>
      <svg
        className="qr"
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={`QR code: ${submission.url}`}
        shapeRendering="crispEdges"
      >
        <rect width={size} height={size} fill="#ffffff" />
        <path d={path} fill="#000000" />
      </svg>
    </div>
  );
}
