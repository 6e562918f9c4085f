// Command lotbook is the one binary: `serve` runs the HTTP API, the projections and the web app;
// `replay`, `verify`, `rebuild`, `draw verify` and `user` are the operator's and auditor's tools. Flags and
// wiring only: the work is done by the packages it calls.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/events/backend"
	"github.com/lotbook/lotbook/projections"
)

const usage = `lotbook: an event-sourced brokerage ledger for the Taiwan market

usage:
  lotbook serve [--addr 127.0.0.1:8080] [--metrics-addr 127.0.0.1:9464] [--data ./data] [--demo] [--pprof ADDR] [--lock-minutes N] [--hold-days N]
      [--role all|api|projector|process] [--partition i/n [--repartition]] [--nats nats://127.0.0.1:4222] [--nats-subject lotbook.sockets] [--request-timeout 5s]
  lotbook replay --account ACCOUNT [--data ./data]
  lotbook verify [--data ./data]
  lotbook rebuild NAME [--data ./data] | lotbook rebuild --list
  lotbook draw verify ISSUE [--data ./data]
  lotbook user add --role ops|auditor ACCOUNT [--password P | --password-stdin] [--data ./data]
  lotbook user disable ACCOUNT --reason R [--data ./data]
  lotbook user enable ACCOUNT --reason R [--data ./data]
  lotbook user password ACCOUNT [--password P | --password-stdin] [--data ./data]
  lotbook invite create [CODE] [--data ./data]
  lotbook invite disable CODE --reason R [--data ./data]
  lotbook channel set ID --name N --min AMOUNT --max AMOUNT [--currency TWD] [--weekdays 1,2,3,4,5]
      [--open 09:00] [--close 17:00] [--tz Asia/Taipei] [--closed-on-holidays=true] [--disabled]
      [--payee-bank B --payee-branch BR --payee-account NUMBER --payee-name HOLDER]
      [--password P | --password-stdin | --no-password] [--data ./data]

environment:
  LOTBOOK_DATABASE_URL  PostgreSQL for read models (and events unless LOTBOOK_EVENTS_URL is set)
  LOTBOOK_EVENTS_URL    event store only: postgres://..., esdb://... or kurrentdb://...
  LOTBOOK_SECRET_KEY    32 bytes (64 hex digits or base64) sealing ID and card numbers; required without --demo
  LOTBOOK_MARKET_SEED   the simulated market's seed (default 1): same seed, same prices
  LOTBOOK_NATS_URL      serve's --nats default
`

// errUsage marks a command line that cannot be run; main prints the usage with it.
var errUsage = errors.New("usage")

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, log)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(os.Stdout, usage)
	case errors.Is(err, errUsage):
		fmt.Fprintf(os.Stderr, "%v\n\n%s", err, usage)
		os.Exit(2)
	default:
		var f failed
		if !errors.As(err, &f) {
			log.Error("lotbook failed", "err", err)
		}
		os.Exit(1)
	}
}

// failed is an error already reported to the user (verify's report); main only sets the exit code.
type failed struct{ msg string }

func (f failed) Error() string { return f.msg }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: no command", errUsage)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, log)
	case "replay":
		return replay(ctx, rest, stdout)
	case "verify":
		return verify(ctx, rest, stdout, log)
	case "rebuild":
		return rebuild(ctx, rest, stdout, stderr)
	case "draw":
		return drawVerify(ctx, rest, stdout)
	case "user":
		return user(ctx, rest, stdin, stdout, stderr)
	case "invite":
		return invite(ctx, rest, stdout)
	case "channel":
		return channel(ctx, rest, stdin, stdout, stderr)
	case "help", "-h", "--help":
		return flag.ErrHelp
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

// env is where the data lives: --data and the two URLs of the environment.
type env struct {
	data        string
	databaseURL string
	eventsURL   string
}

func newFlags(name string, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.data, "data", "./data", "data folder (SQLite files and uploads)")
	e.databaseURL = os.Getenv("LOTBOOK_DATABASE_URL")
	e.eventsURL = os.Getenv("LOTBOOK_EVENTS_URL")
	return fs
}

// parse parses flags wherever they stand among the positional arguments (`rebuild NAME --data d`)
// and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// storeURL is the event store's URL: LOTBOOK_EVENTS_URL, else LOTBOOK_DATABASE_URL, else SQLite.
func (e env) storeURL() string {
	if e.eventsURL != "" {
		return e.eventsURL
	}
	return e.databaseURL
}

func (e env) openStore(ctx context.Context) (events.Store, error) {
	if err := os.MkdirAll(e.data, 0o750); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	return backend.Open(ctx, e.data, e.storeURL())
}

// withStore opens the event store, runs fn over it and closes it.
func (e env) withStore(ctx context.Context, fn func(events.Store) error) error {
	store, err := e.openStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	return fn(store)
}

func (e env) openReadDB(ctx context.Context) (*projections.ReadDB, error) {
	return projections.OpenReadDB(ctx, e.data, e.databaseURL)
}

// openStoreAndReadDB opens both sides for the commands that run projectors; closeBoth closes them.
func (e env) openStoreAndReadDB(ctx context.Context) (store events.Store, db *projections.ReadDB, closeBoth func(), err error) {
	if store, err = e.openStore(ctx); err != nil {
		return nil, nil, nil, err
	}
	if db, err = e.openReadDB(ctx); err != nil {
		store.Close()
		return nil, nil, nil, err
	}
	return store, db, func() {
		db.Close()
		store.Close()
	}, nil
}
