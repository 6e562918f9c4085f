package audit

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/lotbook/lotbook/events"
	"github.com/shopspring/decimal"
)

// Finding kinds.
const (
	KindStore       = "store"        // positions or stream versions out of order or with gaps
	KindDecode      = "decode"       // an event that does not decode
	KindUnbalanced  = "unbalanced"   // an event's postings do not sum to zero per currency
	KindNegative    = "negative"     // a member's balance went below zero (above zero for an owed kind)
	KindMisplaced   = "misplaced"    // a member's money posted outside that member's account stream
	KindTotal       = "total"        // the sum of every posting of a currency is not zero
	KindReadModel   = "read_model"   // a read model differs from its replay
	KindBalanceView = "balance_view" // the balances read model differs from the posting sums
	KindShares      = "shares"       // a member's share accounts differ from the positions the trading read model holds
)

// maxFindings bounds the report; a badly damaged log would otherwise list every event.
const maxFindings = 1000

// pageSize is how many events Verify reads per ReadAll call.
const pageSize = 5000

// Finding is one broken invariant.
type Finding struct {
	Kind     string `json:"kind"`
	Position int64  `json:"position,omitempty"`
	Stream   string `json:"stream,omitempty"`
	Detail   string `json:"detail"`
}

func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Kind)
	if f.Position > 0 {
		fmt.Fprintf(&b, " at position %d", f.Position)
	}
	if f.Stream != "" {
		fmt.Fprintf(&b, " (%s)", f.Stream)
	}
	b.WriteString(": ")
	b.WriteString(f.Detail)
	return b.String()
}

// Report is the outcome of Verify.
type Report struct {
	Head            int64                      `json:"head"`        // last global position checked
	Events          int64                      `json:"events"`      // events replayed
	Streams         int                        `json:"streams"`     // streams seen
	MoneyEvents     int64                      `json:"moneyEvents"` // events carrying postings
	Members         int                        `json:"members"`     // members with a cash account
	Totals          map[string]decimal.Decimal `json:"totals"`      // sum of all postings per asset (zero when sound)
	ReadModels      []string                   `json:"readModels"`  // read models compared with their replay
	Findings        []Finding                  `json:"findings"`
	BalancesChecked bool                       `json:"balancesChecked"`     // the balances read model was compared with the postings
	SharesChecked   bool                       `json:"sharesChecked"`       // the share accounts were compared with the trading read model
	Unchecked       int                        `json:"unchecked,omitempty"` // balances left out because events after Head moved them
	Dropped         int                        `json:"dropped"`             // findings beyond the first maxFindings
}

// OK reports whether no invariant is broken.
func (r Report) OK() bool { return len(r.Findings) == 0 }

// String is the human-readable report that `lotbook verify` prints.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "events %d (up to position %d), streams %d, money events %d, members with cash %d\n",
		r.Events, r.Head, r.Streams, r.MoneyEvents, r.Members)
	currencies := make([]string, 0, len(r.Totals))
	for c := range r.Totals {
		currencies = append(currencies, c)
	}
	sort.Strings(currencies)
	for _, c := range currencies {
		fmt.Fprintf(&b, "sum of postings %s: %s\n", c, r.Totals[c])
	}
	if len(r.ReadModels) > 0 {
		fmt.Fprintf(&b, "read models compared with their replay: %s\n", strings.Join(r.ReadModels, ", "))
	}
	if r.BalancesChecked {
		fmt.Fprintf(&b, "balances read model compared with the postings")
		if r.Unchecked > 0 {
			fmt.Fprintf(&b, " (%d moved by events during the check, left out)", r.Unchecked)
		}
		b.WriteString("\n")
	}
	if r.SharesChecked {
		b.WriteString("share accounts compared with the positions of the trading read model\n")
	}
	if r.OK() {
		b.WriteString("OK: every posting balances, no balance ever negative, read models equal their replay\n")
		return b.String()
	}
	fmt.Fprintf(&b, "FAILED: %d finding(s)\n", len(r.Findings)+r.Dropped)
	for _, f := range r.Findings {
		b.WriteString("  - ")
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "  ... and %d more\n", r.Dropped)
	}
	return b.String()
}

func (r *Report) add(f Finding) {
	if len(r.Findings) >= maxFindings {
		r.Dropped++
		return
	}
	r.Findings = append(r.Findings, f)
}

// ReadModels is what Verify needs from the read side (projections.ReadDB provides it): the read
// models' names and a comparison of each with a fresh replay of the log.
type ReadModels interface {
	Names() []string
	Compare(ctx context.Context, name string) ([]string, error)
}

// ledger replays postings: the balance of every ledger account per asset (currency or security).
type ledger struct {
	sums   map[string]map[string]decimal.Decimal // account -> asset -> sum
	totals map[string]decimal.Decimal            // asset -> sum over all accounts
	// unposted are the positions with a fill stored as v1 (no security, no share legs): their
	// shares are not on the share ledger, so the share check leaves them out.
	unposted map[string]bool
}

func newLedger() *ledger {
	return &ledger{sums: map[string]map[string]decimal.Decimal{}, totals: map[string]decimal.Decimal{}, unposted: map[string]bool{}}
}

func (l *ledger) apply(p events.Posting) decimal.Decimal {
	m := l.sums[p.Account]
	if m == nil {
		m = map[string]decimal.Decimal{}
		l.sums[p.Account] = m
	}
	m[p.Asset()] = m[p.Asset()].Add(p.Amount)
	l.totals[p.Asset()] = l.totals[p.Asset()].Add(p.Amount)
	return m[p.Asset()]
}

// memberAccount is the member id of a member's ledger account (any declared kind).
func memberAccount(account string) (id string, ok bool) {
	a, err := events.ParseAccount(account)
	return a.MemberID, err == nil && a.Kind.Member
}

// Verify replays the whole log from position 0 to the head at the time of the call and checks
// the ledger's invariants; with a non-nil db (projections.Runner) it also compares every read
// model with its replay, and WithBalances cross-checks the balances served with the postings.
// Findings go into the report; the error is for failures to read at all.
func Verify(ctx context.Context, store events.Store, db ReadModels, opts ...Option) (Report, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	rep := Report{Totals: map[string]decimal.Decimal{}}
	head, err := store.Head(ctx)
	if err != nil {
		return rep, fmt.Errorf("audit: head: %w", err)
	}
	led := newLedger()
	versions := map[string]int64{}
	var last int64
	for last < head {
		page, err := store.ReadAll(ctx, last, pageSize)
		if err != nil {
			return rep, fmt.Errorf("audit: read all after %d: %w", last, err)
		}
		if len(page) == 0 {
			rep.add(Finding{Kind: KindStore, Position: last, Detail: fmt.Sprintf("log ends at %d below head %d", last, head)})
			break
		}
		for _, ev := range page {
			if ev.Position > head {
				break
			}
			checkEvent(&rep, led, versions, last, ev)
			last = ev.Position
			rep.Events++
		}
		if page[len(page)-1].Position > head {
			break
		}
	}
	rep.Head = last
	rep.Streams = len(versions)

	members := map[string]bool{}
	for account := range led.sums {
		if id, ok := memberAccount(account); ok {
			members[id] = true
		}
	}
	rep.Members = len(members)
	for c, s := range led.totals {
		rep.Totals[c] = s
		if !s.IsZero() {
			rep.add(Finding{Kind: KindTotal, Detail: fmt.Sprintf("postings in %s sum to %s, not 0", c, s)})
		}
	}
	if db != nil {
		if err := compareReadModels(ctx, &rep, db); err != nil {
			return rep, err
		}
	}
	if o.balances != nil {
		if err := compareBalances(ctx, &rep, store, db, o.balances, led); err != nil {
			return rep, err
		}
		rep.BalancesChecked = true
	}
	if o.shares != nil {
		if err := compareShares(ctx, &rep, store, db, o.shares, led); err != nil {
			return rep, err
		}
		rep.SharesChecked = true
	}
	return rep, nil
}

// checkEvent applies one event to the replay and records what it breaks.
func checkEvent(rep *Report, led *ledger, versions map[string]int64, prev int64, ev events.RecordedEvent) {
	if ev.Position <= prev {
		rep.add(Finding{Kind: KindStore, Position: ev.Position, Stream: ev.Stream,
			Detail: fmt.Sprintf("position %d does not follow %d", ev.Position, prev)})
	}
	if want := versions[ev.Stream] + 1; ev.Version != want {
		rep.add(Finding{Kind: KindStore, Position: ev.Position, Stream: ev.Stream,
			Detail: fmt.Sprintf("stream version %d, expected %d", ev.Version, want)})
	}
	versions[ev.Stream] = ev.Version

	p, err := events.DecodeRecorded(ev)
	if err != nil {
		rep.add(Finding{Kind: KindDecode, Position: ev.Position, Stream: ev.Stream, Detail: err.Error()})
		return
	}
	if f, ok := p.(events.OrderFilled); ok && f.Security == "" {
		led.unposted[f.PositionID] = true
	}
	m, ok := p.(events.MovesMoney)
	if !ok {
		return
	}
	rep.MoneyEvents++
	postings := m.MoneyPostings()
	if err := events.CheckBalanced(postings); err != nil {
		rep.add(Finding{Kind: KindUnbalanced, Position: ev.Position, Stream: ev.Stream,
			Detail: fmt.Sprintf("%s: %v", ev.Type, err)})
	}
	for _, ps := range postings {
		after := led.apply(ps)
		a, err := events.ParseAccount(ps.Account)
		if err != nil || !a.Kind.Member {
			continue
		}
		id := a.MemberID
		if ev.Stream != events.AccountStream(id) {
			rep.add(Finding{Kind: KindMisplaced, Position: ev.Position, Stream: ev.Stream,
				Detail: fmt.Sprintf("%s posts to %s outside %s", ev.Type, ps.Account, events.AccountStream(id))})
		}
		// An owed kind (borrowed shares) is kept at or below zero, every other at or above.
		if a.Kind.Owed && after.IsPositive() || !a.Kind.Owed && after.IsNegative() {
			rep.add(Finding{Kind: KindNegative, Position: ev.Position, Stream: ev.Stream,
				Detail: fmt.Sprintf("%s %s is %s after %s", ps.Account, ps.Asset(), after, ev.Type)})
		}
	}
}

func compareReadModels(ctx context.Context, rep *Report, db ReadModels) error {
	for _, name := range db.Names() {
		diffs, err := db.Compare(ctx, name)
		if err != nil {
			return fmt.Errorf("audit: compare read model %s: %w", name, err)
		}
		rep.ReadModels = append(rep.ReadModels, name)
		for _, d := range diffs {
			rep.add(Finding{Kind: KindReadModel, Detail: name + ": " + d})
		}
	}
	return nil
}
