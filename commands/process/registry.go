package process

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// The registry of process managers: the seam by which a capability's process manager (the
// lottery's calendar, the auction's and the placement's offering processes, and next dividends,
// loan interest, coupons) runs with every stack, the way ops/seed.Register adds a demo step.
//
// A capability registers its manager in its own package, one line in an init function:
//
//	func init() { process.Register(ProcessName, func(d process.Deps) process.Runner { return NewThing(d) }) }
//
// (an offering-shaped capability: offering.Register(ProcessName, func(k) offering.Spec {...})).
// api.OpenStack builds every registered manager over its kernel, store, clock and metrics, and
// Stack.Run runs them all in one loop until the stack stops; no shared file names them. The
// registration runs when the package is linked in: the capability's package is, by its api
// module's line in api/capabilities.go; a manager in a package of its own beneath the capability
// is linked in by a blank import in that api module. The name is the manager's checkpoint and command-id prefix: it must
// not change while checkpoints exist.

// Runner is a registered process manager as a stack runs it: Run folds the log and acts until
// ctx ends.
type Runner interface {
	Run(ctx context.Context) error
}

// Deps is what a stack gives each registered process manager.
type Deps struct {
	Commands   *commands.Service // the write side's kernel (its clock, calendar, sealer)
	Market     *market.Service   // the only source of prices and of the market's calendar of dividends
	Store      events.Store
	Feed       *Feed // the one reader of the log that the stack's processes share
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// Registration is one registered process manager.
type Registration struct {
	Name  string
	Build func(Deps) Runner
}

var (
	regMu      sync.Mutex
	registered = map[string]func(Deps) Runner{}
)

// Register adds a process manager that every stack builds with build and runs. A name registered
// twice panics (two managers would share a checkpoint).
func Register(name string, build func(Deps) Runner) {
	regMu.Lock()
	defer regMu.Unlock()
	if name == "" || build == nil {
		panic("process: Register needs a name and a builder")
	}
	if _, dup := registered[name]; dup {
		panic(fmt.Sprintf("process: %q registered twice", name))
	}
	registered[name] = build
}

// Registered lists the registered process managers by name.
func Registered() []Registration {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]Registration, 0, len(registered))
	for _, name := range slices.Sorted(maps.Keys(registered)) {
		out = append(out, Registration{Name: name, Build: registered[name]})
	}
	return out
}
