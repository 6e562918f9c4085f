package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lotbook/lotbook/commands/subscription"
	"github.com/lotbook/lotbook/events"
)

// drawVerify runs `lotbook draw verify ISSUE`: the issue's draw re-run from the log alone.
func drawVerify(ctx context.Context, args []string, stdout io.Writer) error {
	var e env
	fs := newFlags("draw", &e)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "verify" {
		return fmt.Errorf("%w: draw verify ISSUE", errUsage)
	}
	return e.withStore(ctx, func(store events.Store) error {
		d, err := subscription.Verify(ctx, store, pos[1])
		if err != nil {
			return fmt.Errorf("draw verify %s: %w", pos[1], err)
		}
		writeDrawCheck(stdout, d)
		if !d.Verified() {
			return failed{msg: "draw not verified"}
		}
		return nil
	})
}

// writeDrawCheck prints what was checked and every result, winner by winner.
func writeDrawCheck(w io.Writer, d subscription.DrawCheck) {
	fmt.Fprintf(w, "issue %s\nalgorithm %s\ncommitment %s\n", d.IssueID, d.Algorithm, d.Commitment)
	if !d.Drawn {
		fmt.Fprintf(w, "not drawn yet: %d applications in the log\nNOT VERIFIED\n", len(d.Applications))
		return
	}
	mark := map[bool]string{true: "ok", false: "MISMATCH"}
	fmt.Fprintf(w, "seed %s\nseed matches commitment: %s\n", d.Seed, mark[d.SeedMatches])
	fmt.Fprintf(w, "applications in the log: %d, as the draw recorded them: %s\n", len(d.Applications), mark[d.ApplicationsMatch])
	fmt.Fprintf(w, "winners (%d lots):\n", d.Lots)
	for i := range max(len(d.Winners), len(d.Recomputed)) {
		rec, re := at(d.Winners, i), at(d.Recomputed, i)
		fmt.Fprintf(w, "  %3d  recorded %-26s re-run %-26s %s\n", i+1, rec, re, mark[rec == re])
	}
	for _, p := range d.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	if d.Verified() {
		fmt.Fprintf(w, "VERIFIED: the revealed seed reproduces all %d results over %d applications\n", len(d.Winners), len(d.Applications))
		return
	}
	var lost []string
	for _, w := range d.Winners {
		if !slices.Contains(d.Recomputed, w) {
			lost = append(lost, w)
		}
	}
	fmt.Fprintf(w, "NOT VERIFIED (recorded winners the seed does not draw: %s)\n", strings.Join(lost, ", "))
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "-"
}
