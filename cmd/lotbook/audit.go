package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/audit"
	"github.com/lotbook/lotbook/projections/trading"
)

func replay(ctx context.Context, args []string, stdout io.Writer) error {
	var e env
	fs := newFlags("replay", &e)
	account := fs.String("account", "", "the member's login account")
	if pos, err := parse(fs, args); err != nil {
		return err
	} else if len(pos) > 0 || *account == "" {
		return fmt.Errorf("%w: replay needs --account ACCOUNT and nothing else", errUsage)
	}
	return e.withStore(ctx, func(store events.Store) error {
		memberID := events.MemberID(strings.TrimSpace(*account))
		entries, err := audit.Timeline(ctx, store, memberID)
		if err != nil {
			return err
		}
		if len(entries) == 0 {
			return fmt.Errorf("no events for account %q (member %s)", *account, memberID)
		}
		writeTimeline(stdout, *account, memberID, entries)
		return nil
	})
}

// writeTimeline prints one row per event with the member's own legs and the balances after it,
// one available/frozen column pair per currency the member ever held.
func writeTimeline(w io.Writer, account, memberID string, entries []audit.Entry) {
	currencies := map[string]bool{}
	for _, en := range entries {
		for c := range en.Balances {
			currencies[c] = true
		}
	}
	cur := slices.Sorted(maps.Keys(currencies))
	fmt.Fprintf(w, "account %s (member %s): %d events\n\n", account, memberID, len(entries))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"position", "time (UTC)", "stream", "ver", "event", "actor", "change"}
	for _, c := range cur {
		head = append(head, c+" available", c+" frozen")
	}
	head = append(head, "details")
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, en := range entries {
		var change []string
		for _, p := range en.Postings {
			// The member's own legs, named by their account kind: "available +100 TWD".
			if a, err := events.ParseAccount(p.Account); err == nil && a.Kind.Member && a.MemberID == memberID {
				change = append(change, fmt.Sprintf("%s %s %s", a.Kind.Name, signed(p.Amount.String()), p.Asset()))
			}
		}
		row := []string{
			fmt.Sprint(en.Position), en.Time.Format("2006-01-02 15:04:05"), strings.SplitN(en.Stream, "-", 2)[0],
			fmt.Sprint(en.Version), en.Type, en.Actor, strings.Join(change, ", "),
		}
		for _, c := range cur {
			b := en.Balances[c]
			row = append(row, b.Available.StringFixed(2), b.Frozen.StringFixed(2))
		}
		row = append(row, details(en.Summary))
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
}

func signed(s string) string {
	if strings.HasPrefix(s, "-") {
		return s
	}
	return "+" + s
}

// detailOrder puts the fields an auditor looks for first; the rest follow by name.
var detailOrder = []string{"orderNo", "amount", "currency", "status", "flag", "on", "reason", "remark", "role", "account"}

// details is the summary as key=value pairs (the member id is the header's), cut to stay readable.
func details(summary map[string]any) string {
	keys := slices.Sorted(maps.Keys(summary))
	slices.SortStableFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(detailOrder, a), slices.Index(detailOrder, b)
		if ia < 0 {
			ia = len(detailOrder)
		}
		if ib < 0 {
			ib = len(detailOrder)
		}
		return ia - ib
	})
	var parts []string
	for _, k := range keys {
		v := fmt.Sprint(summary[k])
		if k == "memberId" || v == "" || v == "<nil>" {
			continue
		}
		parts = append(parts, k+"="+v)
	}
	s := strings.Join(parts, " ")
	if len(s) > 100 {
		s = s[:97] + "..."
	}
	return s
}

func verify(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	var e env
	fs := newFlags("verify", &e)
	if pos, err := parse(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: verify takes no arguments, got %q", errUsage, pos)
	}
	store, db, closeBoth, err := e.openStoreAndReadDB(ctx)
	if err != nil {
		return err
	}
	defer closeBoth()

	// Bring the read models up to the log's head first, as serve would on start: a read model
	// that is merely behind (the server was killed) is not wrong, and the balance check compares
	// at the head. Projectors are safe to run next to a live server's; a deployment of
	// partitioned projector instances is brought up by one runner per partition.
	parts, err := db.Partitions(ctx)
	if err != nil {
		return err
	}
	head, err := store.Head(ctx)
	if err != nil {
		return err
	}
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	// A runner that cannot run (its read models split another way) ends the waits.
	wctx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	runners := make([]*projections.Runner, parts)
	done := make(chan struct{}, parts)
	for i := range runners {
		runners[i] = projections.NewRunner(db, store, log, nil)
		runners[i].SetPartition(projections.Partition{Index: i, Count: parts}, false)
		go func() {
			if err := runners[i].Run(rctx); err != nil {
				abort(err)
			}
			done <- struct{}{}
		}()
	}
	defer func() {
		stop()
		for range runners {
			<-done
		}
	}()
	for _, r := range runners {
		if err := r.WaitFor(wctx, head); err != nil {
			return fmt.Errorf("bring read models to position %d: %w", head, context.Cause(wctx))
		}
	}
	runner := runners[0]

	rep, err := audit.Verify(ctx, store, runner, audit.WithBalances(db), audit.WithShares(trading.HoldingsIn(db.Reader)))
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, rep.String())
	if !rep.OK() {
		return failed{msg: "verify found problems"}
	}
	return nil
}
