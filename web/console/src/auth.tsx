// The session: the operator token (sessionStorage), who it is (GET
// /tokens/current: name, role, accounts) and the way out — signing out, or a
// 401 on any call once signed in (the token was revoked meanwhile), which
// lands on the sign-in screen with "Your session ended". Signing in tells
// apart what is not an operator token at all (signInText.ts: a user key, a
// publishable key) from a token the server does not take (unknown or revoked).
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, ApiError, setUnauthorizedListener, tokenStore, unwrap, type Me } from './api/client';
import { can } from './api/access';
import type { Operation } from './api/access.gen';
import { MESSAGES, notATokenMessage, tokenOf } from './signInText';

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

  // only a session that worked can end: a refused sign-in says so itself
  const signedIn = useRef(false);
  useEffect(() => {
    signedIn.current = session.state === 'signedIn';
  }, [session.state]);
  useEffect(() => {
    setUnauthorizedListener(() => {
      if (!tokenStore.get() || !signedIn.current) return;
      signOut(MESSAGES.sessionEnded);
    });
  }, [signOut]);

  /** Whose the token is; kept (and signed in) only once the server took it. */
  const signIn = useCallback(async (typed: string) => {
    const notAToken = notATokenMessage(typed);
    if (notAToken) throw new Error(notAToken);
    const token = tokenOf(typed);
    let me: Me;
    try {
      me = await unwrap(api.GET('/tokens/current', { headers: { Authorization: `Bearer ${token}` } }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw new Error(MESSAGES.revoked);
      throw err;
    }
    tokenStore.set(token);
    setSession({ state: 'signedIn', me });
  }, []);

  // a token kept from before a reload: find out whose it is (refused now: the session it had ended)
  useEffect(() => {
    if (session.state !== 'checking') return;
    const token = tokenStore.get();
    if (!token) return;
    signIn(token).catch((err: unknown) => {
      tokenStore.clear();
      const revoked = err instanceof Error && err.message === MESSAGES.revoked;
      setSession({ state: 'signedOut', message: revoked ? MESSAGES.sessionEnded : errorMessage(err) });
    });
  }, [session.state, signIn]);

  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

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
