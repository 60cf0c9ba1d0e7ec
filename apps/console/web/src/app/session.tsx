import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, whenSignedOut } from '../api/client';
import { closeRealtime } from '../api/realtime';
import type { Me, Role } from '../api/types';

interface SessionState {
  /** undefined while the first /auth/me is under way; null when signed out. */
  me: Me | null | undefined;
  refresh(): Promise<void>;
  signOut(everywhere?: boolean): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    try {
      setMe(await api<Me>('GET', '/auth/me'));
    } catch {
      setMe(null);
    }
  }, []);
  const signOut = useCallback(async (everywhere = false) => {
    await api('POST', everywhere ? '/auth/sign-out-everywhere' : '/auth/sign-out').catch(() => undefined);
    closeRealtime();
    setMe(null);
  }, []);
  useEffect(() => {
    // A 401 can also mean "not this phone" (x-phone outside the member's phones): ask who we are.
    whenSignedOut(() => void refresh());
    void refresh();
  }, [refresh]);
  return <SessionContext.Provider value={{ me, refresh, signOut }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** Owners and admins manage the organization (tokens, members); members work with their phones' chats. */
export const isAdmin = (role: Role | undefined): boolean => role === 'owner' || role === 'admin';
/** Whether the signed-in member may see a page (its adminOnly / ownerOnly). */
export const mayOpen = (page: { adminOnly?: boolean; ownerOnly?: boolean }, role: Role | undefined): boolean =>
  page.ownerOnly ? role === 'owner' : !page.adminOnly || isAdmin(role);
