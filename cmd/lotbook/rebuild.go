package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/lotbook/lotbook/projections"
)

func rebuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var e env
	fs := newFlags("rebuild", &e)
	list := fs.Bool("list", false, "print the read models' names, one a line, and rebuild none")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *list {
		for _, p := range projections.Registered() {
			fmt.Fprintln(stdout, p.Name)
		}
		return nil
	}
	store, db, closeBoth, err := e.openStoreAndReadDB(ctx)
	if err != nil {
		return err
	}
	defer closeBoth()
	// The summary line says what the projector would log; only its warnings interrupt the bar.
	quiet := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	runner := projections.NewRunner(db, store, quiet, nil)
	names := runner.Names()
	if len(pos) != 1 || !slices.Contains(names, pos[0]) {
		return fmt.Errorf("%w: rebuild needs one read model name: %s", errUsage, strings.Join(names, ", "))
	}
	name := pos[0]
	bar := &progressBar{w: stderr, label: "rebuild " + name}
	start := time.Now()
	if err := runner.Rebuild(ctx, name, bar.update); err != nil {
		bar.finish()
		return fmt.Errorf("rebuild %s: %w", name, err)
	}
	elapsed := time.Since(start)
	bar.finish()
	fmt.Fprintf(stdout, "rebuilt %s: %d events in %.3fs (%.0f events/s); the new tables now serve\n",
		name, bar.done, elapsed.Seconds(), float64(bar.done)/elapsed.Seconds())
	return nil
}

// progressBar redraws one line on stderr, at most ten times a second.
type progressBar struct {
	w                     io.Writer
	label                 string
	done, total           int64
	drawnDone, drawnTotal int64
	drawn                 time.Time
	started               bool
}

func (p *progressBar) update(done, total int64) {
	p.done, p.total = done, total
	if time.Since(p.drawn) < 100*time.Millisecond && done < total {
		return
	}
	p.draw()
}

func (p *progressBar) draw() {
	if p.started && p.done == p.drawnDone && p.total == p.drawnTotal {
		return
	}
	p.drawn, p.started, p.drawnDone, p.drawnTotal = time.Now(), true, p.done, p.total
	const width = 30
	frac := 1.0
	if p.total > 0 {
		frac = min(float64(p.done)/float64(p.total), 1)
	}
	n := int(frac * width)
	fmt.Fprintf(p.w, "\r%s [%s%s] %3.0f%% %d/%d events", p.label,
		strings.Repeat("#", n), strings.Repeat(" ", width-n), frac*100, p.done, p.total)
}

func (p *progressBar) finish() {
	if p.started {
		p.draw()
		fmt.Fprintln(p.w)
	}
}
