import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { BASE, navigate } from './router';

/** A link to a page of the console: a real href (open in a new tab works), navigation without reload. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={onClick} {...rest} />;
}
