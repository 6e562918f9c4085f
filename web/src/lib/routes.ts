import type { ComponentType } from 'react';
import type { Entry } from './entries';
import type { TabDecl } from './tabs';

/**
 * Where a screen sits: who may open it and in which frame. public: anyone; tabs: a logged-in
 * user, under the tab bar; session: a logged-in user; ops and auditor: that role only.
 */
export type RouteZone = 'public' | 'tabs' | 'session' | 'ops' | 'auditor';

/**
 * One screen a feature offers. Each feature lists its screens in its routes.ts; the app's router
 * (app/router.tsx) puts them in their zones, each screen its own lazily loaded chunk.
 */
export interface FeatureRoute {
  path: string;
  zone: RouteZone;
  load: () => Promise<{ default: ComponentType }>;
  /** kept mounted, hidden, while the user is away (app/KeepAliveOutlet.tsx) */
  keepAlive?: boolean;
  /** the screen uses no kit component, so it does not wait for the kit's locale (the first route) */
  noKit?: boolean;
  /** ways into this screen from home's shortcuts or mine's menu (lib/entries.ts) */
  entries?: readonly Entry[];
  /** the bottom tab this screen is the root of (lib/tabs.ts); the route must be in the tabs zone */
  tab?: TabDecl;
  /**
   * visitors (no session) may open it too, in the same frame as members (quotes without logging
   * in, issue 14 item 3): the screen must ask nothing of the member's own without a session
   */
  visitors?: boolean;
  /**
   * the GET the screen makes first (URL as lib/api/client sends it): index.html starts it beside
   * the app's code on a cold start at this screen, and the client takes its answer (firstRead.ts)
   */
  firstRead?: string;
}
