import type { MouseEvent } from 'react';
import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router-dom';
import { isCurrentHash } from '@/lib/nav';

function reloadIfCurrent(to: unknown, e: MouseEvent<HTMLAnchorElement>): void {
  if (typeof to === 'string' && isCurrentHash(to)) {
    e.preventDefault();
    window.location.reload();
  }
}

/** A link that reloads when it points at the page already shown. */
export function AppLink(props: LinkProps) {
  return (
    <Link
      {...props}
      onClick={(e) => {
        props.onClick?.(e);
        reloadIfCurrent(props.to, e);
      }}
    />
  );
}

/** A NavLink whose active class is the spec's navActive. */
export function AppNavLink({ className, ...props }: Omit<NavLinkProps, 'className'> & { className?: string }) {
  return (
    <NavLink
      {...props}
      className={({ isActive }) => [className, isActive ? 'navActive' : ''].filter(Boolean).join(' ')}
      onClick={(e) => {
        props.onClick?.(e);
        reloadIfCurrent(props.to, e);
      }}
    />
  );
}
