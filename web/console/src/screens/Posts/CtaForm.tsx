// A post's call to action: the button the wall shows under it (its text, the
// page it opens, its colours), checked here before it is sent — each problem
// under its field — and by the API all the same (its messages land on the
// same fields: the form's fields are named as the API names them).
import { useState } from 'react';
import { contrast } from '../../../../embed/branding';
import type { Post } from '../../api/client';
import { useEditPost } from '../../api/queries/posts';
import { TextField } from '../../ui/fields';
import { onSubmit, useForm } from '../../ui/form';
import { Button, ErrorNote } from '../../ui/kit';
import { useUnsavedGuard } from '../../ui/useUnsavedGuard';
import { COLOR, ctaFieldsOf, ctaProblems, hex6, TEXT_MAX, type CtaFields, type Problems } from './cta';

const same = (a: CtaFields, b: CtaFields) => JSON.stringify(a) === JSON.stringify(b);

export function CtaForm({ post, accent, say }: { post: Post; accent: string | null; say(message: string): void }) {
  const saved = ctaFieldsOf(post.cta, accent);
  const [problems, setProblems] = useState<Problems>({});
  const save = useEditPost(post.wallId, post.id, {
    onSuccess: (after) => {
      setForm(ctaFieldsOf(after.cta, accent));
      say(after.cta ? `Call to action saved: “${after.cta.text}”.` : 'Call to action removed.');
    },
  });
  const { form, field, setForm } = useForm<CtaFields>(saved, save.error);
  // without a call to action, the colours alone are not an edit
  const dirty = post.cta ? !same(form, saved) : form['cta.text'].trim() !== '' || form['cta.url'].trim() !== '';
  useUnsavedGuard(dirty, 'The call to action you changed is not saved.');

  const fieldOf = (name: keyof CtaFields) => {
    const f = field(name);
    return { ...f, error: problems[name] ?? f.error };
  };
  const submit = onSubmit(() => {
    const found = ctaProblems(form);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({
      cta: {
        text: form['cta.text'].trim(),
        url: form['cta.url'].trim(),
        background: form['cta.background'].trim(),
        color: form['cta.color'].trim(),
        status: 1,
      },
    });
  });
  const [background, color] = [form['cta.background'].trim(), form['cta.color'].trim()];
  const readable = COLOR.test(background) && COLOR.test(color);
  const ratio = readable ? contrast(hex6(color), hex6(background)) : null;

  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="cta-title">
      <h2 id="cta-title">Call to action</h2>
      <p className="hint">A button under the post, e.g. “Shop the look”, that opens a page of yours.</p>
      <ErrorNote error={save.error} title="The call to action was not saved" />
      <TextField label="Button text" maxLength={TEXT_MAX} {...fieldOf('cta.text')} />
      <TextField
        label="Link"
        type="url"
        inputMode="url"
        placeholder="https://"
        hint="The page the button opens."
        {...fieldOf('cta.url')}
      />
      <div className="cta-colors">
        <TextField label="Button colour" spellCheck={false} {...fieldOf('cta.background')} />
        <TextField label="Button text colour" spellCheck={false} {...fieldOf('cta.color')} />
      </div>
      {form['cta.text'].trim() && readable && (
        <p className="cta-sample">
          <span className="cta-sample-label">How it looks:</span>
          <span className="cta-preview" aria-hidden="true" style={{ background, color }}>
            {form['cta.text']}
          </span>
          {ratio !== null && ratio < 4.5 && (
            <span className="cta-warning" role="status">
              Hard to read: the text and the button have a contrast of {ratio.toFixed(2)}:1 (at least 4.5:1 reads well).
            </span>
          )}
        </p>
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save call to action
        </Button>
        {dirty && (
          <Button
            onClick={() => {
              setForm(saved);
              setProblems({});
            }}
          >
            Undo changes
          </Button>
        )}
        {post.cta && (
          <Button variant="danger" disabled={save.isPending} onClick={() => save.mutate({ cta: null })}>
            Remove call to action
          </Button>
        )}
      </div>
    </form>
  );
}
