package process

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// The pieces a process manager embeds, so that it writes only its Handle, its timers and its
// commands:
//
//	type Sweep struct {
//		*process.Runtime                  // Run, WaitReady, Position
//		process.EventSet                  // Wants
//		process.Fold[map[string]take]     // Snapshot, Restore, and Lock/Unlock for Handle and the timers
//		cmd Repairer
//	}
//
// New builds the manager, then its runtime over it: s.Runtime = process.New(process.Config{Manager: s, ...}).

// EventSet is a Manager's Wants over a set of event names: an event type without its version
// ("OrderFilled" of "OrderFilled.v1").
type EventSet map[string]bool

// Events is the set of the named events.
func Events(names ...string) EventSet {
	s := make(EventSet, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}

// Wants implements Manager.
func (s EventSet) Wants(eventType string) bool {
	name, _, _ := strings.Cut(eventType, ".")
	return s[name]
}

// Fold is a Manager's folded state T under its own mutex; T's JSON is the checkpoint's state.
// Handle and the timers reach it between Lock and Unlock.
type Fold[T any] struct {
	mu       sync.Mutex
	st       T
	empty    func() T
	restored func(*T) error
}

// NewFold holds empty() until Restore replaces it. restored (when not nil) checks a state read
// from a checkpoint: it fills in what the JSON leaves nil and answers ErrRefold for a state of an
// older form (it sees the JSON decoded into a zero T, so a field the old form lacked is zero).
func NewFold[T any](empty func() T, restored func(*T) error) Fold[T] {
	return Fold[T]{st: empty(), empty: empty, restored: restored}
}

// Lock locks the fold and returns it; Unlock unlocks it.
func (f *Fold[T]) Lock() *T {
	f.mu.Lock()
	return &f.st
}

// Unlock unlocks the fold.
func (f *Fold[T]) Unlock() { f.mu.Unlock() }

// Snapshot implements Manager.
func (f *Fold[T]) Snapshot() ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return json.Marshal(f.st)
}

// Restore implements Manager: an empty state is the empty fold. A state whose JSON does not fit
// T (a field of another type) is of an older form: ErrRefold.
func (f *Fold[T]) Restore(state []byte) error {
	st := f.empty()
	if len(state) > 0 {
		var zero T
		st = zero
		if err := json.Unmarshal(state, &st); err != nil {
			if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
				return fmt.Errorf("%w: %v", ErrRefold, err)
			}
			return fmt.Errorf("decode state: %w", err)
		}
		if f.restored != nil {
			if err := f.restored(&st); err != nil {
				return err
			}
		}
	}
	f.mu.Lock()
	f.st = st
	f.mu.Unlock()
	return nil
}

// EnsureMap makes *m an empty map when it is nil: a Fold's restored func fills in with it the
// maps a checkpoint's JSON left out.
func EnsureMap[M ~map[K]V, K comparable, V any](m *M) {
	if *m == nil {
		*m = M{}
	}
}
