// Sign in with an operator token (made with `wallery tokens create`).
import { useState, type FormEvent } from 'react';
import { useAuth } from '../auth';
import { TextField } from '../ui/fields';
import { Button, errorText, ScreenTitle } from '../ui/kit';

export function SignIn({ message }: { message: string | null }) {
  const { signIn } = useAuth();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!token.trim()) {
      setError('Enter an operator token.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(token.trim());
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <ScreenTitle>Sign in to the Wallery console</ScreenTitle>
      {message && (
        <div className="note" role="status">
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
          hint="Make one on the server: wallery tokens create --name YOUR-NAME --role moderator. It stays in this tab only."
        />
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </main>
  );
}
