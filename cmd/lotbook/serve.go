package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	_ "net/http/pprof" // on http.DefaultServeMux, served only with --pprof
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/lotbook/lotbook/api"
	"github.com/lotbook/lotbook/commands"
	blockcmd "github.com/lotbook/lotbook/commands/block"
	"github.com/lotbook/lotbook/commands/chipgrab"
	"github.com/lotbook/lotbook/commands/rules/secret"
	"github.com/lotbook/lotbook/commands/trading"
	"github.com/lotbook/lotbook/commands/trading/engine"
	"github.com/lotbook/lotbook/ops/seed"
	"github.com/lotbook/lotbook/projections"
)

func serve(ctx context.Context, args []string, log *slog.Logger) error {
	var e env
	fs := newFlags("serve", &e)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	demo := fs.Bool("demo", false, "seed the demo users and channel, deposit window and block applications always open; the market trades around the clock, after-hours sessions included")
	metricsAddr := fs.String("metrics-addr", api.DefaultMetricsAddr, "serve Prometheus metrics at /metrics on this address, apart from the public one (empty: off)")
	pprofAddr := fs.String("pprof", "", "serve Go's profiler (net/http/pprof) on this address, e.g. 127.0.0.1:6060; off by default")
	lockMinutes := fs.Int("lock-minutes", 0, "broker rule: a position can be sold only this many minutes after it opened (0: no lock)")
	holdDays := fs.Int("hold-days", 0, "broker rule: a position can be sold only this many trading days after it opened, day trades excepted (0: same day allowed)")
	roleName := fs.String("role", string(api.RoleAll), "this instance's share of the work: all, api (HTTP and sockets), projector (read models) or process (matching engine and process managers); every role but all needs LOTBOOK_DATABASE_URL")
	natsURL := fs.String("nats", os.Getenv("LOTBOOK_NATS_URL"), "NATS server relaying chat typing between API instances, e.g. nats://127.0.0.1:4222 (required for --role api)")
	requestTimeout := fs.Duration("request-timeout", api.DefaultRequestTimeout, "bound on one HTTP request (session lookup, read-your-writes wait, reads and command; more than 2s); past it the request answers 503 system_busy")
	partition := fs.String("partition", "0/1", "with --role projector: this instance's share i/n of the read models partitioned by stream (every instance 0..n-1 must run; the others run whole on 0)")
	repartition := fs.Bool("repartition", false, "with --partition: when the partitioned read models were split in another count, reset them and project them again from the log (else the instance refuses to start)")
	natsSubject := fs.String("nats-subject", api.DefaultNATSSubject, "NATS subject of the relayed socket frames: one per deployment")
	if pos, err := parse(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: serve takes no arguments, got %q", errUsage, pos)
	}
	if *lockMinutes < 0 || *holdDays < 0 {
		return fmt.Errorf("%w: --lock-minutes and --hold-days cannot be negative", errUsage)
	}
	role, err := api.ParseRole(*roleName)
	if err != nil {
		return fmt.Errorf("%w: --role: %v", errUsage, err)
	}
	if role != api.RoleAll && e.databaseURL == "" {
		return fmt.Errorf("%w: --role %s shares one PostgreSQL with the other instances: set LOTBOOK_DATABASE_URL", errUsage, role)
	}
	if role == api.RoleAPI && *natsURL == "" {
		return fmt.Errorf("%w: --role api relays chat typing to the other API instances: set --nats (or LOTBOOK_NATS_URL)", errUsage)
	}
	part, err := projections.ParsePartition(*partition)
	if err != nil {
		return fmt.Errorf("%w: --partition: %v", errUsage, err)
	}
	if part.Count > 1 && role != api.RoleProjector {
		return fmt.Errorf("%w: --partition %s: only --role projector runs a partition of the read models", errUsage, part)
	}
	marketSeed, err := parseMarketSeed(os.Getenv("LOTBOOK_MARKET_SEED"))
	if err != nil {
		return err
	}
	secretKey, err := parseSecretKey(os.Getenv("LOTBOOK_SECRET_KEY"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(e.data, 0o750); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	st, err := api.OpenStack(ctx, api.Config{
		DataDir: e.data, DatabaseURL: e.databaseURL, EventsURL: e.eventsURL, Demo: *demo, BlockAnyHour: *demo, Logger: log,
		MarketSeed: marketSeed, SecretKey: secretKey,
		Trading: trading.TradingRules{LockMinutes: *lockMinutes, HoldDays: *holdDays},
		Role:    role, NATSURL: *natsURL, NATSSubject: *natsSubject, RequestTimeout: *requestTimeout,
		Partition: part, Repartition: *repartition,
	})
	if err != nil {
		return err
	}
	defer st.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var runErr error
	wg.Go(func() {
		// Projections stopping means reads go stale: take the server down with them.
		runErr = st.Run(ctx)
		cancel()
	})
	if *metricsAddr != "" {
		// Like the profiler, a listener that cannot start is logged and leaves the API serving:
		// the alert on a silent /metrics tells.
		wg.Go(func() {
			if err := api.Serve(ctx, *metricsAddr, st.MetricsHandler()); err != nil {
				log.Error("metrics listener", "err", err)
			}
		})
		log.Info("metrics listening", "addr", "http://"+*metricsAddr+"/metrics")
	}
	if *pprofAddr != "" {
		wg.Go(func() {
			if err := api.Serve(ctx, *pprofAddr, http.DefaultServeMux); err != nil {
				log.Error("pprof listener", "err", err)
			}
		})
		log.Info("profiler listening", "addr", "http://"+*pprofAddr+"/debug/pprof/")
	}
	// The seed sends commands, which a projector instance does not; a second instance's seeding
	// writes nothing (seed.Meta's keys).
	if *demo && role != api.RoleProjector {
		err := seed.Demo(ctx, st.Commands)
		if err == nil {
			err = seed.Blocks(ctx, blockcmd.New(st.Commands), func(symbol string) commands.ListingQuote {
				return engine.ListingQuote(st.Market, symbol, time.Now())
			}, time.Now())
		}
		if err == nil {
			err = seed.ChipGrab(ctx, chipgrab.New(st.Commands), func(symbol string) commands.ListingQuote {
				return engine.ListingQuote(st.Market, symbol, time.Now())
			}, time.Now())
		}
		if err == nil {
			err = seed.SeedMentors(ctx, st.Commands, func(symbol string) trading.Market {
				return engine.View(st.Market, symbol, time.Now())
			})
		}
		if err != nil {
			cancel()
			wg.Wait()
			return err
		}
		log.Info("demo data seeded", "member", seed.MemberAccount, "ops", seed.OpsAccount, "auditor", seed.AuditorAccount)
	}
	log.Info("lotbook serving", "role", role, "partition", part, "addr", "http://"+*addr, "data", e.data, "demo", *demo,
		"read models", dbKind(e.databaseURL), "events", dbKind(e.storeURL()))
	serveErr := api.Serve(ctx, *addr, st.Handler())
	cancel()
	wg.Wait()
	return errors.Join(serveErr, runErr)
}

// parseMarketSeed reads LOTBOOK_MARKET_SEED: empty for the default, else a positive integer.
func parseMarketSeed(v string) (uint64, error) {
	if v == "" {
		return api.DefaultMarketSeed, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%w: LOTBOOK_MARKET_SEED must be a positive integer, got %q", errUsage, v)
	}
	return n, nil
}

// parseSecretKey reads LOTBOOK_SECRET_KEY (32 bytes as 64 hex digits or base64); empty means
// none, which only --demo accepts.
func parseSecretKey(v string) ([]byte, error) {
	if v == "" {
		return nil, nil
	}
	key, err := secret.ParseKey(v)
	if err != nil {
		return nil, fmt.Errorf("%w: LOTBOOK_SECRET_KEY: %v", errUsage, err)
	}
	return key, nil
}

func dbKind(url string) string {
	if url == "" {
		return "sqlite"
	}
	for i := range len(url) {
		if url[i] == ':' {
			return url[:i]
		}
	}
	return "?"
}
