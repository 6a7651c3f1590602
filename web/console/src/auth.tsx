// The session: the operator token (sessionStorage), who it is (GET
// /tokens/current: name, role, accounts) and the way out — signing out, or a
// 401 on any call (a revoked or unknown token), which lands on the sign-in
// screen with a message.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, setUnauthorizedListener, tokenStore, unwrap, type Me } from './api/client';
import { can } from './api/access';
import type { Operation } from './api/access.gen';

type Session = { state: 'checking' } | { state: 'signedOut'; message: string | null } | { state: 'signedIn'; me: Me };

interface Auth {
  session: Session;
  signIn(token: string): Promise<void>;
  signOut(message?: string | null): void;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>(() =>
    tokenStore.get() ? { state: 'checking' } : { state: 'signedOut', message: null },
  );

  const signOut = useCallback(
    (message: string | null = null) => {
      tokenStore.clear();
      queryClient.clear();
      setSession({ state: 'signedOut', message });
    },
    [queryClient],
  );

  useEffect(() => {
    setUnauthorizedListener(() => {
      if (!tokenStore.get()) return;
      signOut('Your session ended: the token is no longer valid (revoked or unknown). Sign in with a valid token.');
    });
  }, [signOut]);

  const signIn = useCallback(async (token: string) => {
    tokenStore.set(token);
    try {
      const me = await unwrap(api.GET('/tokens/current'));
      setSession({ state: 'signedIn', me });
    } catch (err) {
      tokenStore.clear();
      if (err instanceof ApiError && err.status === 401)
        throw new ApiError(401, 'That token is not valid: it is unknown or was revoked.');
      throw err;
    }
  }, []);

  // a token kept from before a reload: find out whose it is
  useEffect(() => {
    if (session.state !== 'checking') return;
    const token = tokenStore.get();
    if (!token) return;
    signIn(token).catch((err: unknown) =>
      setSession({ state: 'signedOut', message: err instanceof Error ? err.message : String(err) }),
    );
  }, [session.state, signIn]);

  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/** The signed-in token (screens are only shown signed in). */
export function useMe(): Me & { can(operation: Operation): boolean } {
  const { session } = useAuth();
  if (session.state !== 'signedIn') throw new Error('useMe while signed out');
  const me = session.me;
  return useMemo(() => ({ ...me, can: (operation: Operation) => can(me.role, operation) }), [me]);
}
