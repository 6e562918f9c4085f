// Package quota is the arithmetic of a first-come quota (chip grabbing, 搶籌): what a claim may
// take of what is left, and what giving a claim back returns. The offering's stream holds the
// remaining lots, so every claim is decided on the quota as the last one left it.
package quota

// Refusals (message keys).
const (
	Insufficient = "quota_insufficient" // fewer lots left than asked
	OverMember   = "quota_member_cap"   // the member's lots would pass the per-member cap
)

// Claim names why lots cannot be taken from remaining, "" when they can: a member holding held
// lots of the offering may hold at most perMember in all. Lots must be positive (the caller's
// validation); a quota never goes below zero.
func Claim(remaining, lots, held, perMember int64) string {
	switch {
	case held+lots > perMember:
		return OverMember
	case lots > remaining:
		return Insufficient
	}
	return ""
}

// Release is the quota after a claim of lots is given back; it never exceeds the offered total.
func Release(remaining, lots, total int64) int64 {
	return min(total, remaining+lots)
}
