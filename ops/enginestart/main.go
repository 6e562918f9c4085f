// Command enginestart measures how long the matching engine takes to start over a big event log:
// it fills a SQLite event store with -events events (orders placed and cancelled, a rest of
// working orders, and events the engine does not fold), then starts the engine twice and prints
// the time until it is ready each time. The first start has no checkpoint and folds the whole
// log; the second resumes from the checkpoint the first saved at stop.
//
//	go run ./ops/enginestart -events 1000000
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/sqlite"
	"github.com/lotbook/lotbook/market"
	"github.com/lotbook/lotbook/market/calendar"
)

func main() {
	n := flag.Int("events", 1_000_000, "events in the log")
	resting := flag.Int("resting", 1000, "orders left working at the end of the log")
	dir := flag.String("dir", "", "directory of events.db (a temporary one when empty; an existing log is reused)")
	flag.Parse()
	if err := run(*n, *resting, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "enginestart:", err)
		os.Exit(1)
	}
}

func run(n, resting int, dir string) error {
	ctx := context.Background()
	if dir == "" {
		d, err := os.MkdirTemp("", "enginestart")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	path := filepath.Join(dir, "events.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	head, err := st.Head(ctx)
	if err != nil {
		return err
	}
	if head == 0 {
		t0 := time.Now()
		if err := fill(ctx, st, n, resting); err != nil {
			return err
		}
		if head, err = st.Head(ctx); err != nil {
			return err
		}
		fmt.Printf("filled %d events in %v\n", head, time.Since(t0).Round(time.Millisecond))
	}
	mkt, err := market.New(market.Config{Seed: 1, Demo: true})
	if err != nil {
		return err
	}
	cmd := commands.New(st, commands.Options{Calendar: calendar.Taiwan(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, run := range []string{"first start (no checkpoint)", "restart (from the checkpoint)"} {
		e := engine.New(engine.Config{Commands: trading.New(cmd, trading.TradingRules{}), Store: st, Market: mkt, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		ctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		t0 := time.Now()
		go func() { done <- e.Run(ctx) }()
		if err := e.WaitReady(ctx); err != nil {
			cancel()
			return err
		}
		took := time.Since(t0)
		cancel()
		if err := <-done; err != nil {
			return err
		}
		fmt.Printf("%s over %d events: ready in %v\n", run, head, took.Round(time.Millisecond))
	}
	return nil
}

// fill appends n events in batches of a thousand: per cycle of five, an order placed and later
// cancelled, an order placed and cancelled with no effect on the book, and an event the engine
// does not fold; the last resting orders stay working.
func fill(ctx context.Context, st events.Store, n, resting int) error {
	today := engine.TradingDay(time.Now())
	meta := events.Metadata{CommandID: "enginestart", Actor: "system", ServerTime: time.Now()}
	var batch []events.EventData
	stream := ""
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := st.Append(ctx, stream, events.AnyVersion, batch); err != nil {
			return fmt.Errorf("append to %s: %w", stream, err)
		}
		batch = batch[:0]
		return nil
	}
	add := func(s string, p events.Payload) error {
		if s != stream {
			if err := flush(); err != nil {
				return err
			}
			stream = s
		}
		typ, data, err := events.Encode(p)
		if err != nil {
			return err
		}
		batch = append(batch, events.EventData{ID: uuid.New(), Type: typ, Data: data, Metadata: meta})
		if len(batch) == 1000 {
			return flush()
		}
		return nil
	}
	for i := 0; i < n; {
		account := "account-m" + strconv.Itoa(i/1000)
		no := "T" + strconv.Itoa(i)
		placed := events.OrderPlaced{OrderNo: no, PositionID: no, Intent: events.IntentOpen, Symbol: "2603", Side: events.SideBuy,
			Direction: events.DirectionLong, Type: "limit", Shares: 1000, Price: decimal.RequireFromString("186"),
			Leverage: decimal.NewFromInt(1), TradingDay: today, By: events.OrderByMember}
		if err := add(account, placed); err != nil {
			return err
		}
		i++
		if n-i < resting {
			continue
		}
		for _, p := range []events.Payload{events.FavoriteAdded{Symbol: "2330"}, events.FavoriteRemoved{Symbol: "2330"},
			events.OrderCancelled{OrderNo: no, PositionID: no, Shares: 1000, Reason: "member"}} {
			if i == n {
				break
			}
			if err := add(account, p); err != nil {
				return err
			}
			i++
		}
	}
	return flush()
}
