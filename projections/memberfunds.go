package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/lotbook/lotbook/events"
)

// The member_funds projection: identity submissions (the ops queue and the member's own status),
// bank cards, withdrawals (the ops queue) and the credit score; the member's money history is the
// journal (journal.go). It keeps its own account names (funds_accounts, from MemberRegistered) so
// that it needs no other projector's tables.

var realNameTable = &table{
	name: "realname",
	cols: []column{
		{"member_id", kText}, {"account", kText}, {"submission_id", kText}, {"name", kText}, {"id_cipher", kText},
		{"id_masked", kText}, {"front_file_id", kText}, {"back_file_id", kText}, {"status", kText}, {"remark", kText},
		{"reviewed_by", kText}, {"submitted_at", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"member_id"},
	indexes: []string{"status, seq"},
}

var bankCardsTable = &table{
	name: "bank_cards",
	cols: []column{
		{"card_id", kText}, {"member_id", kText}, {"holder_name", kText}, {"bank_name", kText}, {"branch", kText},
		{"bank_code", kText}, {"last4", kText}, {"ifsc", kText}, {"upi", kText}, {"bound_at", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"card_id"},
	indexes: []string{"member_id, seq"},
}

var withdrawalsTable = &table{
	name: "withdrawals",
	cols: []column{
		{"order_no", kText}, {"member_id", kText}, {"account", kText}, {"currency", kText}, {"amount", kText},
		{"channel_name", kText}, {"card_id", kText}, {"holder_name", kText}, {"bank_name", kText}, {"branch", kText},
		{"bank_code", kText}, {"card_last4", kText}, {"status", kText}, {"remark", kText}, {"reviewed_by", kText},
		{"created_at", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt},
	},
	key:     []string{"order_no"},
	indexes: []string{"status, seq"},
}

var creditScoresTable = &table{
	name: "credit_scores",
	cols: []column{{"member_id", kText}, {"score", kInt}, {"position", kInt}},
	key:  []string{"member_id"},
}

// withdrawalChannelsTable keeps its first position (seq) as display order across redefinitions.
var withdrawalChannelsTable = &table{
	name: "withdrawal_channels",
	cols: []column{{"id", kText}, {"name", kText}, {"currency", kText}, {"min_amount", kText}, {"max_amount", kText},
		{"time_window", kText}, {"enabled", kInt}, {"updated_at", kInt}, {"seq", kInt}, {"position", kInt}},
	key: []string{"id"},
}

var fundsAccountsTable = &table{
	name: "funds_accounts",
	cols: []column{{"member_id", kText}, {"account", kText}},
	key:  []string{"member_id"},
}

var memberFundsProjector = &projector{
	name:    "member_funds",
	version: 1,
	unit:    accountUnit,
	money:   true,
	tables: []*table{realNameTable, bankCardsTable, withdrawalsTable, creditScoresTable, fundsAccountsTable,
		withdrawalChannelsTable},
	wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MemberRegistered, events.RealNameSubmitted, events.RealNameApproved, events.RealNameRejected,
			events.BankCardBound, events.BankCardUnbound, events.WithdrawalRequested, events.WithdrawalApproved,
			events.WithdrawalRejected, events.CreditScoreChanged, events.WithdrawalChannelConfigured:
			return true
		}
		return false
	},
	apply: applyMemberFunds,
}

// Registered here rather than in projector.go's list, which other read models extend at the
// same time; Names reports it after them.
func init() { projectors = append(projectors, memberFundsProjector) }

type realNameRow struct {
	memberID, account, submissionID, name, idCipher, idMasked, front, back, status, remark, reviewedBy string
	submittedAt, updatedAt, seq, position                                                              int64
}

func (r *realNameRow) args() []any {
	return []any{r.memberID, r.account, r.submissionID, r.name, r.idCipher, r.idMasked, r.front, r.back, r.status,
		r.remark, r.reviewedBy, r.submittedAt, r.updatedAt, r.seq, r.position}
}

func (r *realNameRow) scan(rows interface{ Scan(...any) error }) error {
	return rows.Scan(&r.memberID, &r.account, &r.submissionID, &r.name, &r.idCipher, &r.idMasked, &r.front, &r.back,
		&r.status, &r.remark, &r.reviewedBy, &r.submittedAt, &r.updatedAt, &r.seq, &r.position)
}

type withdrawalRow struct {
	orderNo, memberID, account, currency, amount, channelName, cardID, holderName, bankName, branch, bankCode string
	cardLast4, status, remark, reviewedBy                                                                     string
	createdAt, updatedAt, seq, position                                                                       int64
}

func (r *withdrawalRow) args() []any {
	return []any{r.orderNo, r.memberID, r.account, r.currency, r.amount, r.channelName, r.cardID, r.holderName,
		r.bankName, r.branch, r.bankCode, r.cardLast4, r.status, r.remark, r.reviewedBy, r.createdAt, r.updatedAt, r.seq, r.position}
}

func (r *withdrawalRow) scan(rows interface{ Scan(...any) error }) error {
	return rows.Scan(&r.orderNo, &r.memberID, &r.account, &r.currency, &r.amount, &r.channelName, &r.cardID, &r.holderName,
		&r.bankName, &r.branch, &r.bankCode, &r.cardLast4, &r.status, &r.remark, &r.reviewedBy, &r.createdAt, &r.updatedAt,
		&r.seq, &r.position)
}

// memberFundsPage is one page's rows, loaded where the page decides on rows written before it.
type memberFundsPage struct {
	accounts    map[string]string // member id -> account
	realNames   map[string]*realNameRow
	withdrawals map[string]*withdrawalRow
	cards       map[string][]any // card id -> row, nil when unbound in this page
	scores      map[string][]any
	newAccounts [][]any
	channels    map[string][]any
}

func applyMemberFunds(ctx context.Context, w *wtx, evs []decoded) error {
	pg := &memberFundsPage{accounts: map[string]string{}, realNames: map[string]*realNameRow{}, withdrawals: map[string]*withdrawalRow{},
		cards: map[string][]any{}, scores: map[string][]any{}, channels: map[string][]any{}}
	if err := pg.load(ctx, w, evs); err != nil {
		return err
	}
	for _, d := range evs {
		if err := pg.apply(d); err != nil {
			return err
		}
	}
	return pg.write(ctx, w)
}

// load reads the rows this page's events decide on but did not create.
func (pg *memberFundsPage) load(ctx context.Context, w *wtx, evs []decoded) error {
	needAccount, needRealName, needWithdrawal := map[string]struct{}{}, map[string]struct{}{}, map[string]struct{}{}
	created := map[string]bool{}
	for _, d := range evs {
		switch e := d.p.(type) {
		case events.MemberRegistered:
			pg.accounts[e.MemberID] = e.Account
		case events.RealNameSubmitted:
			if id, err := memberOf(d.ev.Stream); err == nil {
				needAccount[id] = struct{}{}
				created["r"+id] = true
			}
		case events.RealNameApproved, events.RealNameRejected:
			if id, err := memberOf(d.ev.Stream); err == nil && !created["r"+id] {
				needRealName[id] = struct{}{}
			}
		case events.WithdrawalRequested:
			if id, err := memberOf(d.ev.Stream); err == nil {
				needAccount[id] = struct{}{}
			}
			created["w"+e.OrderNo] = true
		case events.WithdrawalApproved:
			if !created["w"+e.OrderNo] {
				needWithdrawal[e.OrderNo] = struct{}{}
			}
		case events.WithdrawalRejected:
			if !created["w"+e.OrderNo] {
				needWithdrawal[e.OrderNo] = struct{}{}
			}
		}
	}
	for id := range pg.accounts {
		delete(needAccount, id)
	}
	if err := w.selectIn(ctx, fundsAccountsTable, "member_id", keysOf(needAccount), func(rows *sql.Rows) error {
		var id, account string
		if err := rows.Scan(&id, &account); err != nil {
			return err
		}
		pg.accounts[id] = account
		return nil
	}); err != nil {
		return err
	}
	if err := w.selectIn(ctx, realNameTable, "member_id", keysOf(needRealName), func(rows *sql.Rows) error {
		r := &realNameRow{}
		if err := r.scan(rows); err != nil {
			return err
		}
		pg.realNames[r.memberID] = r
		return nil
	}); err != nil {
		return err
	}
	if err := w.selectIn(ctx, withdrawalsTable, "order_no", keysOf(needWithdrawal), func(rows *sql.Rows) error {
		r := &withdrawalRow{}
		if err := r.scan(rows); err != nil {
			return err
		}
		pg.withdrawals[r.orderNo] = r
		return nil
	}); err != nil {
		return err
	}
	return pg.loadChannels(ctx, w, evs)
}

// loadChannels keeps the first position of channels redefined in this page.
func (pg *memberFundsPage) loadChannels(ctx context.Context, w *wtx, evs []decoded) error {
	ids := map[string]struct{}{}
	for _, d := range evs {
		if e, ok := d.p.(events.WithdrawalChannelConfigured); ok {
			ids[e.ID] = struct{}{}
		}
	}
	return w.selectIn(ctx, withdrawalChannelsTable, "id", keysOf(ids), func(rows *sql.Rows) error {
		row := make([]any, 10)
		var id, name, cur, lo, hi, win string
		var enabled, updated, seq, pos int64
		if err := rows.Scan(&id, &name, &cur, &lo, &hi, &win, &enabled, &updated, &seq, &pos); err != nil {
			return err
		}
		row[0], row[8] = id, seq
		pg.channels[id] = row
		return nil
	})
}

func (pg *memberFundsPage) apply(d decoded) error {
	at, pos := micros(d.ev.Metadata.ServerTime), d.ev.Position
	switch e := d.p.(type) {
	case events.MemberRegistered:
		pg.newAccounts = append(pg.newAccounts, []any{e.MemberID, e.Account})
		return nil
	case events.WithdrawalChannelConfigured:
		win, err := json.Marshal(e.Window)
		if err != nil {
			return d.fail(fmt.Errorf("channel window: %w", err))
		}
		seq := pos
		if prev := pg.channels[e.ID]; prev != nil {
			seq = prev[8].(int64)
		}
		pg.channels[e.ID] = []any{e.ID, e.Name, e.Currency, e.Min.String(), e.Max.String(), string(win), boolInt(e.Enabled), at, seq, pos}
		return nil
	}
	member, err := memberOf(d.ev.Stream)
	if err != nil {
		return d.fail(err)
	}
	switch e := d.p.(type) {
	case events.RealNameSubmitted:
		pg.realNames[member] = &realNameRow{memberID: member, account: pg.accounts[member], submissionID: e.SubmissionID, name: e.Name,
			idCipher: e.IDNumberCipher, idMasked: e.IDNumberMasked, front: e.FrontFileID, back: e.BackFileID,
			status: events.RealNameStatusPending, submittedAt: at, updatedAt: at, seq: pos, position: pos}
	case events.RealNameApproved:
		return pg.review(d, member, events.RealNameStatusVerified, e.Remark)
	case events.RealNameRejected:
		return pg.review(d, member, events.RealNameStatusRejected, e.Remark)
	case events.BankCardBound:
		pg.cards[e.CardID] = []any{e.CardID, member, e.HolderName, e.BankName, e.Branch, e.BankCode, e.CardLast4, e.IFSC, e.UPI, at, pos, pos}
	case events.BankCardUnbound:
		pg.cards[e.CardID] = nil
	case events.WithdrawalRequested:
		if pg.withdrawals[e.OrderNo] != nil {
			return d.fail(fmt.Errorf("withdrawal %s requested twice", e.OrderNo))
		}
		pg.withdrawals[e.OrderNo] = &withdrawalRow{orderNo: e.OrderNo, memberID: member, account: pg.accounts[member],
			currency: e.Currency, amount: e.Amount.String(), channelName: e.ChannelName, cardID: e.CardID, holderName: e.HolderName,
			bankName: e.BankName, branch: e.Branch, bankCode: e.BankCode, cardLast4: e.CardLast4, status: events.ReviewPending,
			createdAt: at, updatedAt: at, seq: pos, position: pos}
	case events.WithdrawalApproved:
		return pg.decideWithdrawal(d, e.OrderNo, events.ReviewApproved, e.Remark)
	case events.WithdrawalRejected:
		return pg.decideWithdrawal(d, e.OrderNo, events.ReviewRejected, e.Remark)
	case events.CreditScoreChanged:
		pg.scores[member] = []any{member, int64(e.Score), pos}
	}
	return nil
}

func (pg *memberFundsPage) review(d decoded, member, status, remark string) error {
	r := pg.realNames[member]
	if r == nil {
		return d.fail(fmt.Errorf("identity of %s reviewed but never submitted", member))
	}
	at := micros(d.ev.Metadata.ServerTime)
	r.status, r.remark, r.reviewedBy, r.updatedAt, r.position = status, remark, d.ev.Metadata.Actor, at, d.ev.Position
	return nil
}

func (pg *memberFundsPage) decideWithdrawal(d decoded, orderNo, status, remark string) error {
	r := pg.withdrawals[orderNo]
	if r == nil {
		return d.fail(fmt.Errorf("withdrawal %s decided but never requested", orderNo))
	}
	at := micros(d.ev.Metadata.ServerTime)
	r.status, r.remark, r.reviewedBy, r.updatedAt, r.position = status, remark, d.ev.Metadata.Actor, at, d.ev.Position
	return nil
}

func (pg *memberFundsPage) write(ctx context.Context, w *wtx) error {
	if err := w.upsert(ctx, fundsAccountsTable, pg.newAccounts); err != nil {
		return err
	}
	var rn [][]any
	for _, r := range pg.realNames {
		rn = append(rn, r.args())
	}
	if err := w.upsert(ctx, realNameTable, rn); err != nil {
		return err
	}
	var unbound []any
	var cards [][]any
	for id, row := range pg.cards {
		if row == nil {
			unbound = append(unbound, id)
			continue
		}
		cards = append(cards, row)
	}
	if err := w.deleteIn(ctx, bankCardsTable, "card_id", unbound); err != nil {
		return err
	}
	if err := w.upsert(ctx, bankCardsTable, cards); err != nil {
		return err
	}
	var ws, ss [][]any
	for _, r := range pg.withdrawals {
		ws = append(ws, r.args())
	}
	for _, r := range pg.scores {
		ss = append(ss, r)
	}
	if err := w.upsert(ctx, withdrawalsTable, ws); err != nil {
		return err
	}
	if err := w.upsert(ctx, creditScoresTable, ss); err != nil {
		return err
	}
	var chs [][]any
	for _, r := range pg.channels {
		chs = append(chs, r) // every loaded row was redefined by an event of this page
	}
	return w.upsert(ctx, withdrawalChannelsTable, chs)
}
