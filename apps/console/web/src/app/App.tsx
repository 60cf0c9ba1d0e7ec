import { useEffect } from 'react';
import { Layout } from '../layout/Layout';
import { AcceptInvitePage } from '../pages/accept-invite/AcceptInvitePage';
import { SignInPage } from '../pages/sign-in/SignInPage';
import { PAGES } from './pages';
import { matchPath, navigate, useLocation } from './router';
import { mayOpen, useSession } from './session';

const HOME = '/phones';

export function App() {
  const { me } = useSession();
  const { path } = useLocation();
  const signedIn = Boolean(me);
  useEffect(() => {
    if (signedIn && (path === '/' || path === '/sign-in' || path === '/accept-invite')) navigate(HOME, { replace: true });
  }, [signedIn, path]);

  if (path === '/accept-invite' && !me) return <AcceptInvitePage />;
  if (me === undefined)
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  if (me === null) return <SignInPage />;

  for (const page of PAGES) {
    const params = matchPath(page.path, path);
    if (!params) continue;
    if (!mayOpen(page, me.role)) {
      return (
        <Layout title="Not available">
          <p>{page.ownerOnly ? "This page is for the organization's owners." : "This page is for the organization's owners and admins."}</p>
        </Layout>
      );
    }
    return <Layout title={page.title ?? page.nav ?? page.path}>{page.render(params)}</Layout>;
  }
  return (
    <Layout title="Not found">
      <p>There is no such page.</p>
    </Layout>
  );
}
