// Package payout is the dividend process manager: it folds every member's shares from the share
// postings of the log; when the log (or the clock, once caught up) passes a dividend's ex-date it
// records each holder's entitlement (the shares held at the close of the day before), and on the
// payment date it pays it. Command ids derive from the dividend and the member, so a restart, a
// refold from an older checkpoint or a second instance applies each once; the commands
// themselves refuse a second entitlement or payment.
package payout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/dividend"
	"github.com/lotbook/lotbook/commands/process"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/market"
)

// ProcessName names the checkpoint, the metrics and the command ids.
const ProcessName = "dividend-payout"

func init() {
	process.Register(ProcessName, func(d process.Deps) process.Runner {
		return New(Config{Commands: dividend.New(d.Commands), Market: d.Market, Store: d.Store, Clock: d.Clock,
			Logger: d.Logger, Registerer: d.Registerer})
	})
}

// Market is what the process reads of the market: the schedule and the instruments' names.
type Market interface {
	DividendsBetween(from, to time.Time) []market.Dividend
	Instrument(symbol string) (market.Instrument, error)
}

// Config wires a Process.
type Config struct {
	Commands   *dividend.Commands
	Market     Market
	Store      events.Store
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// Process is the dividend process manager.
type Process struct {
	cmd   *dividend.Commands
	mkt   Market
	store events.Store
	now   func() time.Time
	log   *slog.Logger
	rt    *process.Runtime

	mu sync.Mutex
	st fold
}

// fold is what the process knows; its JSON is the checkpoint.
type fold struct {
	// Through: entitlements are captured for every dividend going ex at or before it (zero until
	// the first event: nobody held anything before).
	Through time.Time `json:"through"`
	// Held is each member's shares per security ("TW:2330").
	Held map[string]map[string]int64 `json:"held"`
	// ToEntitle are captured holdings not yet recorded, by dividend id then member.
	ToEntitle map[string]map[string]int64 `json:"toEntitle,omitempty"`
	// Dividends are the captured dividends not yet recorded, by id.
	Dividends map[string]dividend.Distribution `json:"dividends,omitempty"`
	// ToPay are recorded entitlements not yet paid: member/orderNo -> when due.
	ToPay map[string]time.Time `json:"toPay,omitempty"`
}

// New prepares the process; Run runs it.
func New(cfg Config) *Process {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Process{cmd: cfg.Commands, mkt: cfg.Market, store: cfg.Store, now: cfg.Clock, log: cfg.Logger.With("process", ProcessName)}
	p.st = emptyFold()
	p.rt = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "due", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return p.RunDue(ctx) }}}})
	return p
}

func emptyFold() fold {
	return fold{Held: map[string]map[string]int64{}, ToEntitle: map[string]map[string]int64{},
		Dividends: map[string]dividend.Distribution{}, ToPay: map[string]time.Time{}}
}

// Run folds the log and sends what is due until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	if err := p.rt.Run(ctx); err != nil {
		return fmt.Errorf("dividend payout: %w", err)
	}
	return nil
}

// WaitReady waits until the log at start is folded.
func (p *Process) WaitReady(ctx context.Context) error { return p.rt.WaitReady(ctx) }

// Position is the position up to which the process has folded the log.
func (p *Process) Position() int64 { return p.rt.Position() }

// Wants implements process.Manager: every event of an account stream may move shares.
func (p *Process) Wants(string) bool { return true }

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Holdings at the close before an ex-date are those before the first event after it.
	p.advance(r.Metadata.ServerTime)
	if !strings.HasPrefix(r.Stream, "account-") {
		return nil
	}
	member := strings.TrimPrefix(r.Stream, "account-")
	switch e := pl.(type) {
	case events.DividendEntitled:
		p.forgetCapture(e.DividendID, member)
		p.st.ToPay[member+"/"+e.OrderNo] = e.PayAt
	case events.DividendCashPaid:
		p.paid(member, e.OrderNo)
	case events.DividendSharesDistributed:
		p.paid(member, e.OrderNo)
	}
	if m, ok := pl.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			if !leg.IsShares() || leg.Account != events.MemberAccount(member, events.KindShares) {
				continue
			}
			h := p.st.Held[member]
			if h == nil {
				h = map[string]int64{}
				p.st.Held[member] = h
			}
			h[leg.Security] += leg.Amount.IntPart()
			if h[leg.Security] == 0 {
				delete(h, leg.Security)
			}
		}
	}
	return nil
}

// entitled forgets a captured holding once its entitlement is recorded (or was already).
func (p *Process) entitled(dividendID, member string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgetCapture(dividendID, member)
}

// forgetCapture drops a captured holding. Called with mu.
func (p *Process) forgetCapture(dividendID, member string) {
	if m := p.st.ToEntitle[dividendID]; m != nil {
		delete(m, member)
		if len(m) == 0 {
			delete(p.st.ToEntitle, dividendID)
			delete(p.st.Dividends, dividendID)
		}
	}
}

// paid forgets a paid entitlement (its cash and its shares are written in one append). Called
// with mu.
func (p *Process) paid(member, orderNo string) { delete(p.st.ToPay, member+"/"+orderNo) }

// advance captures the holders of every dividend going ex in (Through, t]. Called with mu.
func (p *Process) advance(t time.Time) {
	if t.IsZero() {
		return
	}
	if p.st.Through.IsZero() {
		p.st.Through = t
		return
	}
	if !t.After(p.st.Through) {
		return
	}
	// Ex-dates are at midnight (Asia/Taipei): within one day there is nothing to capture.
	if y1, m1, d1 := p.st.Through.In(commands.Taipei).Date(); true {
		if y2, m2, d2 := t.In(commands.Taipei).Date(); y1 == y2 && m1 == m2 && d1 == d2 {
			p.st.Through = t
			return
		}
	}
	for _, d := range p.mkt.DividendsBetween(p.st.Through.Add(time.Nanosecond), t.Add(time.Nanosecond)) {
		sec := events.Security(events.MarketTW, d.Symbol)
		for member, h := range p.st.Held {
			if n := h[sec]; n > 0 {
				if p.st.ToEntitle[d.ID] == nil {
					p.st.ToEntitle[d.ID] = map[string]int64{}
					p.st.Dividends[d.ID] = p.distribution(d)
				}
				p.st.ToEntitle[d.ID][member] = n
			}
		}
	}
	p.st.Through = t
}

func (p *Process) distribution(d market.Dividend) dividend.Distribution {
	name, kind := d.Symbol, "stock"
	if in, err := p.mkt.Instrument(d.Symbol); err == nil {
		name = in.Name
		if in.Type == "etf" {
			kind = "etf"
			if strings.HasSuffix(d.Symbol, "B") {
				kind = "bond_etf"
			}
		}
	}
	return dividend.Distribution{ID: d.ID, Symbol: d.Symbol, Name: name, Kind: kind, Period: d.Period, Cash: d.Cash, Stock: d.Stock,
		ExDate: d.ExDate, RecordDate: d.RecordDate, PayDate: d.PayDate}
}

// Snapshot implements process.Manager.
func (p *Process) Snapshot() ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.st)
}

// Restore implements process.Manager.
func (p *Process) Restore(state []byte) error {
	st := emptyFold()
	if len(state) > 0 {
		if err := json.Unmarshal(state, &st); err != nil {
			return fmt.Errorf("dividend payout state: %w", err)
		}
	}
	for _, m := range []any{&st.Held, &st.ToEntitle, &st.Dividends, &st.ToPay} {
		switch v := m.(type) {
		case *map[string]map[string]int64:
			if *v == nil {
				*v = map[string]map[string]int64{}
			}
		case *map[string]dividend.Distribution:
			if *v == nil {
				*v = map[string]dividend.Distribution{}
			}
		case *map[string]time.Time:
			if *v == nil {
				*v = map[string]time.Time{}
			}
		}
	}
	p.mu.Lock()
	p.st = st
	p.mu.Unlock()
	return nil
}

type job struct {
	member, orderNo string
	entitle         *dividend.Entitle
}

// due lists the commands due at now; once the fold has caught up with the log it first moves the
// capture to now (no event before now is still to come).
func (p *Process) due(now time.Time, caught bool) []job {
	p.mu.Lock()
	defer p.mu.Unlock()
	if caught {
		p.advance(now)
	}
	var out []job
	for _, id := range slices.Sorted(maps.Keys(p.st.ToEntitle)) {
		for _, m := range slices.Sorted(maps.Keys(p.st.ToEntitle[id])) {
			out = append(out, job{member: m, orderNo: dividend.OrderNo(id),
				entitle: &dividend.Entitle{MemberID: m, Distribution: p.st.Dividends[id], Shares: p.st.ToEntitle[id][m]}})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.st.ToPay)) {
		if at := p.st.ToPay[k]; !now.Before(at) {
			m, no, _ := strings.Cut(k, "/")
			out = append(out, job{member: m, orderNo: no})
		}
	}
	return out
}

// RunDue records the captured entitlements and pays the due ones. Failures run again on the next
// occurrence (every second).
func (p *Process) RunDue(ctx context.Context) error {
	caught := false
	var errs []error
	if head, err := p.store.Head(ctx); err != nil {
		errs = append(errs, err)
	} else {
		caught = p.rt.Position() >= head
	}
	for _, j := range p.due(p.now(), caught) {
		var err error
		if j.entitle != nil {
			meta := commands.Meta{CommandID: ProcessName + "/entitle/" + j.orderNo + "/" + j.member, Actor: "system"}
			if _, err = p.cmd.Entitle(ctx, meta, *j.entitle); err == nil {
				p.entitled(j.entitle.Distribution.ID, j.member)
			}
		} else {
			meta := commands.Meta{CommandID: ProcessName + "/pay/" + j.orderNo + "/" + j.member, Actor: "system"}
			_, err = p.cmd.Pay(ctx, meta, j.member, j.orderNo)
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			p.log.WarnContext(ctx, "dividend step failed; it runs again", "member", j.member, "order", j.orderNo, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
