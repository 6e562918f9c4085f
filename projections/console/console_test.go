package console

import (
	"context"
	"testing"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections/projtest"
)

// TestConsole: root codes (not members' own) with their uses and their closing; each config
// change with its actor and the value before it; the read model equals its replay.
func TestConsole(t *testing.T) {
	projtest.Backends(t, func(t *testing.T, e *projtest.Env) {
		ctx := context.Background()
		db, r := e.Start()
		dec := projtest.Dec
		e.Add(events.InviteStream("LAUNCH"), "ops:chief", events.InviteCodeIssued{Code: "LAUNCH"})
		e.Add(events.InviteStream("ABCDEFG"), "system", events.InviteCodeIssued{Code: "ABCDEFG", MemberID: "m1"})
		e.Add(events.MemberStream("m1"), "system", events.MemberRegistered{MemberID: "m1", Account: "0911111111", Role: events.RoleMember, InviteCode: "LAUNCH"})
		e.Add(events.MemberStream("s1"), "system", events.MemberRegistered{MemberID: "s1", Account: "chief", Role: events.RoleOps})
		e.Add(events.InviteStream("LAUNCH"), "ops:chief", events.InviteCodeDisabled{Code: "LAUNCH", Reason: "over"})
		e.Add(events.ConfigStream, "system", events.DepositChannelConfigured{ID: "bank", Name: "A", Currency: "TWD", Min: dec("1"), Max: dec("2"), PasswordHash: "h1"})
		e.Add(events.ConfigStream, "ops:chief", events.DepositChannelConfigured{ID: "bank", Name: "B", Currency: "TWD", Min: dec("1"), Max: dec("2"), PasswordHash: "h1",
			Payee: events.Payee{Bank: "台灣銀行", Account: "12345678", Name: "樂簿"}})
		e.Add(events.ConfigStream, "ops:chief", events.SiteConfigured{Name: "text.about.en", Value: "Hi"})
		r.WaitFor(t, e.Head())

		check := func() {
			t.Helper()
			ivs, _, err := Invites(ctx, db.Reader, 1, 20)
			if err != nil || len(ivs) != 1 || ivs[0].Code != "LAUNCH" || !ivs[0].Disabled || ivs[0].Uses != 1 || ivs[0].CreatedBy != "ops:chief" || ivs[0].Reason != "over" {
				t.Fatalf("invites %+v %v", ivs, err)
			}
			uses, err := Uses(ctx, db.Reader, "LAUNCH")
			if err != nil || len(uses) != 1 || uses[0].Account != "0911111111" {
				t.Fatalf("uses %+v %v", uses, err)
			}
			chs, _, err := Changes(ctx, db.Reader, KindDepositChannel, 1, 20)
			if err != nil || len(chs) != 2 || chs[0].Actor != "ops:chief" || chs[0].Before != chs[1].After || chs[1].Before != "" {
				t.Fatalf("changes %+v %v", chs, err)
			}
			all, _, err := Changes(ctx, db.Reader, "", 1, 20)
			if err != nil || len(all) != 5 || all[0].Kind != KindSite || all[0].Subject != "text.about.en" {
				t.Fatalf("all changes %+v %v", all, err)
			}
		}
		check()
		projtest.NoDiffs(t, r.Runner)
		if err := r.Rebuild(ctx, "console", nil); err != nil {
			t.Fatal(err)
		}
		check()
	})
}
