// A post's text, corrected: its HTML in a text box and, beside it, what the
// wall will show — the console's safe rendering (ui/PostText.tsx) keeps what
// the server's allowlist keeps, and says what it will leave out. Once saved,
// the API's answer (the server's sanitizer is the truth) replaces both.
import { useMemo, useState } from 'react';
import type { Post } from '../../api/client';
import { apiErrorOf } from '../../api/client';
import { useEditPost } from '../../api/queries/posts';
import { TextAreaField } from '../../ui/fields';
import { onSubmit } from '../../ui/form';
import { Button, ErrorNote } from '../../ui/kit';
import { sanitizedPost } from '../../ui/PostText';
import { useUnsavedGuard } from '../../ui/useUnsavedGuard';

const CONTENT_MAX = 10_000;

export function TextForm({ post, say }: { post: Post; say(message: string): void }) {
  /** the text as edited; null: as saved */
  const [draft, setDraft] = useState<string | null>(null);
  const save = useEditPost(post.wallId, post.id, {
    onSuccess: (saved, edit) => {
      setDraft(null);
      say(
        saved.content === edit.content
          ? 'Text saved.'
          : 'Text saved. Wallery left out what a wall does not show: the text box and the preview show it as saved.',
      );
    },
  });
  const text = draft ?? post.content;
  const dirty = draft !== null && draft !== post.content;
  useUnsavedGuard(dirty, 'The text you corrected is not saved.');
  const preview = useMemo(() => sanitizedPost(text), [text]);
  const tooLong = text.length > CONTENT_MAX ? `Keep the text to ${CONTENT_MAX} characters.` : undefined;
  const submit = onSubmit(() => {
    if (!tooLong) save.mutate({ content: text });
  });

  return (
    <form className="panel text-form" onSubmit={submit} noValidate aria-labelledby="text-title">
      <h2 id="text-title">Text</h2>
      <ErrorNote error={save.error} title="The text was not saved" />
      <TextAreaField
        label="Text (HTML)"
        hint="Paragraphs (<p>), bold (<strong>), italics (<em>), lists and links (<a href>) are kept; anything else is left out when saved."
        rows={8}
        spellCheck
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        error={tooLong ?? apiErrorOf(save.error)?.forField('content')}
      />
      <div className="text-preview">
        <h3 id="text-preview-title">{dirty ? 'Preview: what the wall will show' : 'What the wall shows'}</h3>
        <div className="post-html text-preview-body">
          {preview.nodes.length > 0 ? preview.nodes : <em>(no text)</em>}
        </div>
        {dirty && preview.removed.length > 0 && (
          <p className="text-removed" role="status">
            Left out when saved: {preview.removed.join('; ')}.
          </p>
        )}
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={!dirty || save.isPending}>
          Save text
        </Button>
        {dirty && <Button onClick={() => setDraft(null)}>Undo changes</Button>}
      </div>
    </form>
  );
}
