import { useEffect, type ReactNode } from 'react';
import { Link } from '../app/Link';
import { PAGES } from '../app/pages';
import { useLocation } from '../app/router';
import { mayOpen, useSession } from '../app/session';

/** The frame of every signed-in page: who is signed in, the pages they may use, sign-out. */
export function Layout({ title, children }: { title: string; children: ReactNode }) {
  const { me, signOut } = useSession();
  const { path } = useLocation();
  useEffect(() => {
    document.title = `${title} · mapi console`;
  }, [title]);
  const pages = PAGES.filter((p) => p.nav && mayOpen(p, me?.role));
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">mapi console</span>
        <span className="who" data-testid="who">
          {me?.member.email} <span className="role">({me?.role})</span>
        </span>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Pages" className="nav">
        <ul>
          {pages.map((p) => (
            <li key={p.path}>
              <Link to={p.path} aria-current={path === p.path || path.startsWith(`${p.path}/`) ? 'page' : undefined}>
                {p.nav}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
