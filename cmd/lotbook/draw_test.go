package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands/rules/draw"
	"github.com/lotbook/lotbook/events"
)

// drawLog writes issues straight into a fresh data folder's log: an honest one and, for each
// way of tampering, one whose draw record was changed after the fact.
func drawLog(t *testing.T, issues map[string]func(seed string, apps, winners []string) (string, []string, []string)) string {
	t.Helper()
	return freshLog(t, func(ctx context.Context, store events.Store) { writeDraws(t, ctx, store, issues) })
}

func writeDraws(t *testing.T, ctx context.Context, store events.Store, issues map[string]func(seed string, apps, winners []string) (string, []string, []string)) {
	n := 0
	appendTo := func(stream string, ps ...events.Payload) {
		cmd := uuid.NewString()
		data := make([]events.EventData, len(ps))
		for i, p := range ps {
			typ, raw, err := events.Encode(p)
			if err != nil {
				t.Fatal(err)
			}
			data[i] = events.EventData{ID: events.EventID(cmd, stream, i), Type: typ, Data: raw,
				Metadata: events.Metadata{CommandID: cmd, Actor: "system", CorrelationID: cmd, CausationID: cmd, ServerTime: time.Now().UTC()}}
		}
		if _, err := store.Append(ctx, stream, events.AnyVersion, data); err != nil {
			t.Fatal(err)
		}
	}
	for id, tamper := range issues {
		n++
		seed := strings.Repeat(fmt.Sprintf("%02x", n), 32)
		commit, _ := draw.Commitment(seed)
		appendTo(events.SubscriptionStream(id), events.SubscriptionIssueListed{IssueID: id, Symbol: strings.Split(id, "-")[0], Lots: 3, UnitLots: 1, LotShares: 1000},
			events.SubscriptionSeedCommitted{IssueID: id, Commitment: commit, Algorithm: draw.Algorithm})
		var apps []string
		for i := range 12 {
			no := fmt.Sprintf("S%s%04d", strings.Split(id, "-")[0], i)
			member := events.MemberID(fmt.Sprintf("09%08d", 100*n+i))
			amount := decimal.NewFromInt(50000)
			appendTo(events.AccountStream(member), events.SubscriptionApplied{IssueID: id, ApplicationNo: no, Amount: amount, Fee: decimal.NewFromInt(20),
				Postings: events.Transfer(events.MemberAvailable(member), events.MemberFrozen(member), "TWD", amount.Add(decimal.NewFromInt(20)))})
			apps = append(apps, no)
		}
		winners, err := draw.Winners(seed, apps, 3)
		if err != nil {
			t.Fatal(err)
		}
		seed, apps, winners = tamper(seed, apps, winners)
		appendTo(events.SubscriptionStream(id), events.SubscriptionDrawn{IssueID: id, Seed: seed, Commitment: commit, Algorithm: draw.Algorithm,
			Lots: 3, Applications: apps, Winners: winners})
	}
}

// TestDrawVerify: `lotbook draw verify` reproduces an honest draw from the log and the revealed
// seed, and reports every kind of tampering with the record as not verified.
func TestDrawVerify(t *testing.T) {
	honest := func(seed string, apps, winners []string) (string, []string, []string) { return seed, apps, winners }
	dir := drawLog(t, map[string]func(string, []string, []string) (string, []string, []string){
		"1001-20260302": honest,
		"1002-20260302": func(seed string, apps, winners []string) (string, []string, []string) {
			for _, a := range apps { // a loser written in as a winner
				if a != winners[0] && a != winners[1] && a != winners[2] {
					return seed, apps, []string{winners[0], winners[1], a}
				}
			}
			return seed, apps, winners
		},
		"1003-20260302": func(_ string, apps, winners []string) (string, []string, []string) {
			return strings.Repeat("ff", 32), apps, winners // another seed than the one committed to
		},
		"1004-20260302": func(seed string, apps, _ []string) (string, []string, []string) {
			w, _ := draw.Winners(seed, apps[1:], 3) // an application left out of the draw
			return seed, apps[1:], w
		},
	})
	out, err := lotbook(t, "", "draw", "verify", "1001-20260302", "--data", dir)
	if err != nil || !strings.Contains(out, "VERIFIED: the revealed seed reproduces all 3 results over 12 applications") {
		t.Fatalf("honest draw: %v\n%s", err, out)
	}
	for id, want := range map[string]string{
		"1002-20260302": "recorded winners the seed does not draw: S1002", "1003-20260302": "seed matches commitment: MISMATCH",
		"1004-20260302": "applications in the log: 12, as the draw recorded them: MISMATCH",
	} {
		out, err := lotbook(t, "", "draw", "verify", id, "--data", dir)
		var f failed
		if !errors.As(err, &f) || !strings.Contains(out, "NOT VERIFIED") || !strings.Contains(out, want) {
			t.Errorf("%s: %v\n%s", id, err, out)
		}
	}
	if _, err := lotbook(t, "", "draw", "verify", "9999-20260302", "--data", dir); err == nil {
		t.Error("an unknown issue verified")
	}
	if _, err := lotbook(t, "", "draw", "verify", "--data", dir); !errors.Is(err, errUsage) {
		t.Errorf("no issue: %v", err)
	}
}
