package commands

import "maps"

// MirrorMap is m with each value through f, never nil: a part's map into its snapshot mirror, and
// back on a restore (a part may write into the map it gets).
func MirrorMap[K comparable, V, S any](m map[K]V, f func(V) S) map[K]S {
	out := make(map[K]S, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

// CloneMap is a copy of m, never nil (see MirrorMap).
func CloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return maps.Clone(m)
}
