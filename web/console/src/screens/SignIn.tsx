// Sign in with an operator token (made with `wallery tokens create`). What
// was pasted instead — a user key, a publishable key, anything else — is
// named under the field; a token the server refuses is "unknown or revoked";
// a session that ended (or was signed out of) is said above the form.
import { useState, type FormEvent } from 'react';
import { useAuth } from '../auth';
import { MESSAGES, SIGN_IN_HINT } from '../signInText';
import { TextField } from '../ui/fields';
import { Button, errorText, ScreenTitle } from '../ui/kit';

export function SignIn({ message }: { message: string | null }) {
  const { signIn } = useAuth();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(token);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
      // back to the field, whose description now reads the message
      document.querySelector<HTMLInputElement>('.signin input[name="token"]')?.focus();
    }
  }

  return (
    <main className="signin">
      <ScreenTitle>Sign in to the Wallery console</ScreenTitle>
      {message && (
        <div
          className={message === MESSAGES.sessionEnded ? 'note note-warn' : 'note'}
          role="status"
          data-testid="session-message"
        >
          {message}
        </div>
      )}
      <form onSubmit={submit} noValidate>
        <TextField
          label="Operator token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={error ?? undefined}
          hint={SIGN_IN_HINT}
        />
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
