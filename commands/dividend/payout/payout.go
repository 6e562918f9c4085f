// Package payout is the dividend process manager: it folds every member's shares from the share
// postings of the log; when the log (or the clock, once caught up) passes a dividend's ex-date it
// records each holder's entitlement (the shares held at the close of the day before), and on the
// payment date it pays it. Command ids derive from the dividend and the member, so a restart, a
// refold from an older checkpoint or a second instance applies each once; the commands
// themselves refuse a second entitlement or payment.
package payout

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"
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
		return New(Config{Commands: dividend.New(d.Commands), Market: d.Market, Store: d.Store, Feed: d.Feed, Clock: d.Clock,
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
	Feed       *process.Feed // the log reader shared by the stack's processes (nil: its own)
	Clock      func() time.Time
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// Process is the dividend process manager.
type Process struct {
	*process.Runtime
	process.Fold[fold]

	cmd   *dividend.Commands
	mkt   Market
	store events.Store
	now   func() time.Time
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
	p := &Process{cmd: cfg.Commands, mkt: cfg.Market, store: cfg.Store, now: cfg.Clock, Fold: process.NewFold(emptyFold, restored)}
	p.Runtime = process.New(process.Config{Name: ProcessName, Store: cfg.Store, Feed: cfg.Feed, Manager: p, Clock: process.SystemClock(cfg.Clock),
		Logger: cfg.Logger, Registerer: cfg.Registerer,
		Timers: []process.Timer{{Name: "due", Next: process.Every(time.Second),
			Fire: func(ctx context.Context, _ time.Time, _ string) error { return p.RunDue(ctx) }}}})
	return p
}

func emptyFold() fold {
	return fold{Held: map[string]map[string]int64{}, ToEntitle: map[string]map[string]int64{},
		Dividends: map[string]dividend.Distribution{}, ToPay: map[string]time.Time{}}
}

// restored fills in the maps a checkpoint's JSON leaves out.
func restored(st *fold) error {
	process.EnsureMap(&st.Held)
	process.EnsureMap(&st.ToEntitle)
	process.EnsureMap(&st.Dividends)
	process.EnsureMap(&st.ToPay)
	return nil
}

// Wants implements process.Manager: every event of an account stream may move shares.
func (p *Process) Wants(string) bool { return true }

// Handle implements process.Manager.
func (p *Process) Handle(_ context.Context, r events.RecordedEvent, pl events.Payload) error {
	st := p.Lock()
	defer p.Unlock()
	// Holdings at the close before an ex-date are those before the first event after it.
	p.advance(st, r.Metadata.ServerTime)
	if !strings.HasPrefix(r.Stream, "account-") {
		return nil
	}
	member := strings.TrimPrefix(r.Stream, "account-")
	switch e := pl.(type) {
	case events.DividendEntitled:
		st.forgetCapture(e.DividendID, member)
		st.ToPay[member+"/"+e.OrderNo] = e.PayAt
	case events.DividendCashPaid:
		st.paid(member, e.OrderNo)
	case events.DividendSharesDistributed:
		st.paid(member, e.OrderNo)
	}
	if m, ok := pl.(events.MovesMoney); ok {
		for _, leg := range m.MoneyPostings() {
			if !leg.IsShares() || leg.Account != events.MemberAccount(member, events.KindShares) {
				continue
			}
			h := st.Held[member]
			if h == nil {
				h = map[string]int64{}
				st.Held[member] = h
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
	p.Lock().forgetCapture(dividendID, member)
	p.Unlock()
}

// forgetCapture drops a captured holding.
func (st *fold) forgetCapture(dividendID, member string) {
	if m := st.ToEntitle[dividendID]; m != nil {
		delete(m, member)
		if len(m) == 0 {
			delete(st.ToEntitle, dividendID)
			delete(st.Dividends, dividendID)
		}
	}
}

// paid forgets a paid entitlement (its cash and its shares are written in one append).
func (st *fold) paid(member, orderNo string) { delete(st.ToPay, member+"/"+orderNo) }

// advance captures in st (locked) the holders of every dividend going ex in (Through, t].
func (p *Process) advance(st *fold, t time.Time) {
	if t.IsZero() {
		return
	}
	if st.Through.IsZero() {
		st.Through = t
		return
	}
	if !t.After(st.Through) {
		return
	}
	// Ex-dates are at midnight (Asia/Taipei): within one day there is nothing to capture.
	if y1, m1, d1 := st.Through.In(commands.Taipei).Date(); true {
		if y2, m2, d2 := t.In(commands.Taipei).Date(); y1 == y2 && m1 == m2 && d1 == d2 {
			st.Through = t
			return
		}
	}
	for _, d := range p.mkt.DividendsBetween(st.Through.Add(time.Nanosecond), t.Add(time.Nanosecond)) {
		sec := events.Security(events.MarketTW, d.Symbol)
		for member, h := range st.Held {
			if n := h[sec]; n > 0 {
				if st.ToEntitle[d.ID] == nil {
					st.ToEntitle[d.ID] = map[string]int64{}
					st.Dividends[d.ID] = p.distribution(d)
				}
				st.ToEntitle[d.ID][member] = n
			}
		}
	}
	st.Through = t
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

type job struct {
	member, orderNo string
	entitle         *dividend.Entitle
}

// due lists the commands due at now; once the fold has caught up with the log it first moves the
// capture to now (no event before now is still to come).
func (p *Process) due(now time.Time, caught bool) []job {
	st := p.Lock()
	defer p.Unlock()
	if caught {
		p.advance(st, now)
	}
	var out []job
	for _, id := range slices.Sorted(maps.Keys(st.ToEntitle)) {
		for _, m := range slices.Sorted(maps.Keys(st.ToEntitle[id])) {
			out = append(out, job{member: m, orderNo: dividend.OrderNo(id),
				entitle: &dividend.Entitle{MemberID: m, Distribution: st.Dividends[id], Shares: st.ToEntitle[id][m]}})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(st.ToPay)) {
		if at := st.ToPay[k]; !now.Before(at) {
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
		caught = p.Position() >= head
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
			p.Logger().WarnContext(ctx, "dividend step failed; it runs again", "member", j.member, "order", j.orderNo, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
