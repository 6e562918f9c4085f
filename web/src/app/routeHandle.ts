/** Route meta (the spec's meta): keepAlive keeps a screen's state while away from it. */
export interface RouteHandle {
  keepAlive?: boolean;
  /** a session zone's screen that visitors may open too (FeatureRoute.visitors) */
  visitors?: boolean;
}

export function handleOf(h: unknown): RouteHandle {
  return (h && typeof h === 'object' ? h : {}) as RouteHandle;
}
