package funds

import (
	"context"
	"fmt"
	"github.com/lotbook/lotbook/projections"

	"github.com/lotbook/lotbook/events"
)

// The member_funds projection: identity submissions (the ops queue and the member's own status),
// bank cards, withdrawals (the ops queue) and the credit score; the member's money history is the
// journal (journal.go). It keeps its own account names (funds_accounts, from MemberRegistered) so
// that it needs no other projector's tables.

var realNameTable = &projections.Table{
	Name:    "realname",
	Cols:    realNameFields.Columns(),
	Key:     []string{"member_id"},
	Indexes: []string{"status, seq", "id_hash"},
}

type cardRow struct {
	cardID, memberID, holderName, bankName, branch, bankCode, last4, ifsc, upi string
	boundAt, seq, position                                                     int64
}

var cardFields = projections.RowMap[cardRow]{
	projections.Text("card_id", func(r *cardRow) *string { return &r.cardID }),
	projections.Text("member_id", func(r *cardRow) *string { return &r.memberID }),
	projections.Text("holder_name", func(r *cardRow) *string { return &r.holderName }),
	projections.Text("bank_name", func(r *cardRow) *string { return &r.bankName }),
	projections.Text("branch", func(r *cardRow) *string { return &r.branch }),
	projections.Text("bank_code", func(r *cardRow) *string { return &r.bankCode }),
	projections.Text("last4", func(r *cardRow) *string { return &r.last4 }),
	projections.Text("ifsc", func(r *cardRow) *string { return &r.ifsc }),
	projections.Text("upi", func(r *cardRow) *string { return &r.upi }),
	projections.Integer("bound_at", func(r *cardRow) *int64 { return &r.boundAt }),
	projections.Integer("seq", func(r *cardRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *cardRow) *int64 { return &r.position }),
}

var bankCardsTable = &projections.Table{
	Name:    "bank_cards",
	Cols:    cardFields.Columns(),
	Key:     []string{"card_id"},
	Indexes: []string{"member_id, seq"},
}

var withdrawalsTable = &projections.Table{
	Name:    "withdrawals",
	Cols:    withdrawalFields.Columns(),
	Key:     []string{"order_no"},
	Indexes: []string{"status, seq"},
}

type scoreRow struct {
	memberID        string
	score, position int64
}

var scoreFields = projections.RowMap[scoreRow]{
	projections.Text("member_id", func(r *scoreRow) *string { return &r.memberID }),
	projections.Integer("score", func(r *scoreRow) *int64 { return &r.score }),
	projections.Integer("position", func(r *scoreRow) *int64 { return &r.position }),
}

var creditScoresTable = &projections.Table{
	Name: "credit_scores",
	Cols: scoreFields.Columns(),
	Key:  []string{"member_id"},
}

var withdrawalChannelsTable = projections.ChannelTable("withdrawal_channels")

var fundsAccountsTable = projections.MemberAccountsTable("funds_accounts")

var projector = &projections.Projector{
	Name:    "member_funds",
	Version: 2, // v2: realname keeps the keyed hash of the ID number (login by ID number)
	Unit:    projections.AccountUnit,
	Money:   true,
	Tables: []*projections.Table{realNameTable, bankCardsTable, withdrawalsTable, creditScoresTable, fundsAccountsTable,
		withdrawalChannelsTable},
	Wants: func(p events.Payload) bool {
		switch p.(type) {
		case events.MemberRegistered, events.RealNameSubmitted, events.RealNameApproved, events.RealNameRejected,
			events.BankCardBound, events.BankCardUnbound, events.WithdrawalRequested, events.WithdrawalApproved,
			events.WithdrawalRejected, events.CreditScoreChanged, events.WithdrawalChannelConfigured:
			return true
		}
		return false
	},
	Apply: applyMemberFunds,
}

func init() { projections.Register(projector) }

type realNameRow struct {
	memberID, account, submissionID, name, idCipher, idHash, idMasked, front, back, status, remark, reviewedBy string
	submittedAt, updatedAt, seq, position                                                                      int64
}

var realNameFields = projections.RowMap[realNameRow]{
	projections.Text("member_id", func(r *realNameRow) *string { return &r.memberID }),
	projections.Text("account", func(r *realNameRow) *string { return &r.account }),
	projections.Text("submission_id", func(r *realNameRow) *string { return &r.submissionID }),
	projections.Text("name", func(r *realNameRow) *string { return &r.name }),
	projections.Text("id_cipher", func(r *realNameRow) *string { return &r.idCipher }),
	projections.Text("id_hash", func(r *realNameRow) *string { return &r.idHash }),
	projections.Text("id_masked", func(r *realNameRow) *string { return &r.idMasked }),
	projections.Text("front_file_id", func(r *realNameRow) *string { return &r.front }),
	projections.Text("back_file_id", func(r *realNameRow) *string { return &r.back }),
	projections.Text("status", func(r *realNameRow) *string { return &r.status }),
	projections.Text("remark", func(r *realNameRow) *string { return &r.remark }),
	projections.Text("reviewed_by", func(r *realNameRow) *string { return &r.reviewedBy }),
	projections.Integer("submitted_at", func(r *realNameRow) *int64 { return &r.submittedAt }),
	projections.Integer("updated_at", func(r *realNameRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *realNameRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *realNameRow) *int64 { return &r.position }),
}

type withdrawalRow struct {
	orderNo, memberID, account, currency, amount, channelName, cardID, holderName, bankName, branch, bankCode string
	cardLast4, status, remark, reviewedBy                                                                     string
	createdAt, updatedAt, seq, position                                                                       int64
}

var withdrawalFields = projections.RowMap[withdrawalRow]{
	projections.Text("order_no", func(r *withdrawalRow) *string { return &r.orderNo }),
	projections.Text("member_id", func(r *withdrawalRow) *string { return &r.memberID }),
	projections.Text("account", func(r *withdrawalRow) *string { return &r.account }),
	projections.Text("currency", func(r *withdrawalRow) *string { return &r.currency }),
	projections.Text("amount", func(r *withdrawalRow) *string { return &r.amount }),
	projections.Text("channel_name", func(r *withdrawalRow) *string { return &r.channelName }),
	projections.Text("card_id", func(r *withdrawalRow) *string { return &r.cardID }),
	projections.Text("holder_name", func(r *withdrawalRow) *string { return &r.holderName }),
	projections.Text("bank_name", func(r *withdrawalRow) *string { return &r.bankName }),
	projections.Text("branch", func(r *withdrawalRow) *string { return &r.branch }),
	projections.Text("bank_code", func(r *withdrawalRow) *string { return &r.bankCode }),
	projections.Text("card_last4", func(r *withdrawalRow) *string { return &r.cardLast4 }),
	projections.Text("status", func(r *withdrawalRow) *string { return &r.status }),
	projections.Text("remark", func(r *withdrawalRow) *string { return &r.remark }),
	projections.Text("reviewed_by", func(r *withdrawalRow) *string { return &r.reviewedBy }),
	projections.Integer("created_at", func(r *withdrawalRow) *int64 { return &r.createdAt }),
	projections.Integer("updated_at", func(r *withdrawalRow) *int64 { return &r.updatedAt }),
	projections.Integer("seq", func(r *withdrawalRow) *int64 { return &r.seq }),
	projections.Integer("position", func(r *withdrawalRow) *int64 { return &r.position }),
}

// memberFundsPage is one page's rows, loaded where the page decides on rows written before it.
type memberFundsPage struct {
	accounts    map[string]string // member id -> account
	realNames   map[string]*realNameRow
	withdrawals map[string]*withdrawalRow
	cards       map[string]*cardRow // card id -> row, nil when unbound in this page
	scores      map[string][]any
	newAccounts [][]any
	channels    projections.ChannelPage
}

func applyMemberFunds(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	pg := &memberFundsPage{accounts: map[string]string{}, realNames: map[string]*realNameRow{}, withdrawals: map[string]*withdrawalRow{},
		cards: map[string]*cardRow{}, scores: map[string][]any{}, channels: projections.ChannelPage{}}
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
func (pg *memberFundsPage) load(ctx context.Context, w *projections.Wtx, evs []projections.Decoded) error {
	needAccount, needRealName, needWithdrawal := map[string]struct{}{}, map[string]struct{}{}, map[string]struct{}{}
	created := map[string]bool{}
	for _, d := range evs {
		switch e := d.P.(type) {
		case events.MemberRegistered:
			pg.accounts[e.MemberID] = e.Account
		case events.RealNameSubmitted:
			if id, err := projections.MemberOf(d.Ev.Stream); err == nil {
				needAccount[id] = struct{}{}
				created["r"+id] = true
			}
		case events.RealNameApproved, events.RealNameRejected:
			if id, err := projections.MemberOf(d.Ev.Stream); err == nil && !created["r"+id] {
				needRealName[id] = struct{}{}
			}
		case events.WithdrawalRequested:
			if id, err := projections.MemberOf(d.Ev.Stream); err == nil {
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
	if err := projections.MemberAccountFields.SelectIn(ctx, w, fundsAccountsTable, "member_id", projections.KeysOf(needAccount), func(a *projections.MemberAccount) { pg.accounts[a.MemberID] = a.Account }); err != nil {
		return err
	}
	if err := realNameFields.SelectIn(ctx, w, realNameTable, "member_id", projections.KeysOf(needRealName), func(r *realNameRow) { pg.realNames[r.memberID] = r }); err != nil {
		return err
	}
	return withdrawalFields.SelectIn(ctx, w, withdrawalsTable, "order_no", projections.KeysOf(needWithdrawal), func(r *withdrawalRow) { pg.withdrawals[r.orderNo] = r })
}

func (pg *memberFundsPage) apply(d projections.Decoded) error {
	at, pos := projections.Micros(d.Ev.Metadata.ServerTime), d.Ev.Position
	switch e := d.P.(type) {
	case events.MemberRegistered:
		pg.newAccounts = append(pg.newAccounts, projections.MemberAccountFields.Args(&projections.MemberAccount{MemberID: e.MemberID, Account: e.Account}))
		return nil
	case events.WithdrawalChannelConfigured:
		return pg.channels.Define(d, e.ID, e.Name, e.Currency, e.Min, e.Max, e.Window, e.Enabled)
	}
	member, err := projections.MemberOf(d.Ev.Stream)
	if err != nil {
		return d.Fail(err)
	}
	switch e := d.P.(type) {
	case events.RealNameSubmitted:
		pg.realNames[member] = &realNameRow{memberID: member, account: pg.accounts[member], submissionID: e.SubmissionID, name: e.Name,
			idCipher: e.IDNumberCipher, idHash: e.IDNumberKeyedHash, idMasked: e.IDNumberMasked, front: e.FrontFileID, back: e.BackFileID,
			status: events.RealNameStatusPending, submittedAt: at, updatedAt: at, seq: pos, position: pos}
	case events.RealNameApproved:
		return pg.review(d, member, events.RealNameStatusVerified, e.Remark)
	case events.RealNameRejected:
		return pg.review(d, member, events.RealNameStatusRejected, e.Remark)
	case events.BankCardBound:
		pg.cards[e.CardID] = &cardRow{cardID: e.CardID, memberID: member, holderName: e.HolderName, bankName: e.BankName, branch: e.Branch,
			bankCode: e.BankCode, last4: e.CardLast4, ifsc: e.IFSC, upi: e.UPI, boundAt: at, seq: pos, position: pos}
	case events.BankCardUnbound:
		pg.cards[e.CardID] = nil
	case events.WithdrawalRequested:
		if pg.withdrawals[e.OrderNo] != nil {
			return d.Fail(fmt.Errorf("withdrawal %s requested twice", e.OrderNo))
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
		pg.scores[member] = scoreFields.Args(&scoreRow{memberID: member, score: int64(e.Score), position: pos})
	}
	return nil
}

func (pg *memberFundsPage) review(d projections.Decoded, member, status, remark string) error {
	r := pg.realNames[member]
	if r == nil {
		return d.Fail(fmt.Errorf("identity of %s reviewed but never submitted", member))
	}
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	r.status, r.remark, r.reviewedBy, r.updatedAt, r.position = status, remark, d.Ev.Metadata.Actor, at, d.Ev.Position
	return nil
}

func (pg *memberFundsPage) decideWithdrawal(d projections.Decoded, orderNo, status, remark string) error {
	r := pg.withdrawals[orderNo]
	if r == nil {
		return d.Fail(fmt.Errorf("withdrawal %s decided but never requested", orderNo))
	}
	at := projections.Micros(d.Ev.Metadata.ServerTime)
	r.status, r.remark, r.reviewedBy, r.updatedAt, r.position = status, remark, d.Ev.Metadata.Actor, at, d.Ev.Position
	return nil
}

func (pg *memberFundsPage) write(ctx context.Context, w *projections.Wtx) error {
	if err := w.Upsert(ctx, fundsAccountsTable, pg.newAccounts); err != nil {
		return err
	}
	var rn [][]any
	for _, r := range pg.realNames {
		rn = append(rn, realNameFields.Args(r))
	}
	if err := w.Upsert(ctx, realNameTable, rn); err != nil {
		return err
	}
	var unbound []any
	var cards [][]any
	for id, row := range pg.cards {
		if row == nil {
			unbound = append(unbound, id)
			continue
		}
		cards = append(cards, cardFields.Args(row))
	}
	if err := w.DeleteIn(ctx, bankCardsTable, "card_id", unbound); err != nil {
		return err
	}
	if err := w.Upsert(ctx, bankCardsTable, cards); err != nil {
		return err
	}
	var ws, ss [][]any
	for _, r := range pg.withdrawals {
		ws = append(ws, withdrawalFields.Args(r))
	}
	for _, r := range pg.scores {
		ss = append(ss, r)
	}
	if err := w.Upsert(ctx, withdrawalsTable, ws); err != nil {
		return err
	}
	if err := w.Upsert(ctx, creditScoresTable, ss); err != nil {
		return err
	}
	return pg.channels.Write(ctx, w, withdrawalChannelsTable)
}
