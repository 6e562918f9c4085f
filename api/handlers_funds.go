package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
	"github.com/lotbook/lotbook/projections/reviews"
)

func (s *server) channels(c *call) (reply, error) {
	chs, err := config.Channels(c.ctx(), s.read.Reader)
	if err != nil {
		return reply{}, fmt.Errorf("channels: %w", err)
	}
	now := s.now()
	out := make([]wire.DepositChannel, 0, len(chs))
	for _, ch := range chs {
		if !ch.Enabled {
			continue // switched off by ops: members do not see it
		}
		out = append(out, wire.DepositChannel{
			Id: ch.ID, Name: ch.Name, Currency: ch.Currency, Min: money(ch.Min), Max: money(ch.Max),
			Window:  windowOut(ch.Window),
			OpenNow: window.Open(ch.Window, now, s.calendar),
		})
	}
	return ok(out)
}

func windowOut(w events.TimeWindow) wire.TimeWindow {
	days := w.Weekdays
	if days == nil {
		days = []int{}
	}
	return wire.TimeWindow{Weekdays: days, Open: w.Open, Close: w.Close, Tz: w.TZ,
		ClosedOnHolidays: w.ClosedOnHolidays, AlwaysOpen: w.AlwaysOpen}
}

func (s *server) requestDeposit(c *call) (reply, error) {
	var req wire.DepositRequest
	if err := c.decode("DepositRequest", &req); err != nil {
		return reply{}, err
	}
	res, err := s.cmd.RequestDeposit(c.ctx(), c.meta(), c.sess.MemberID, commands.DepositInput{
		ChannelID: req.ChannelId, Amount: req.Amount, ProofFileID: req.ProofFileId, ChannelPassword: req.ChannelPassword,
	})
	if err != nil {
		return reply{}, err
	}
	s.owners.add(res.OrderNo, c.sess.MemberID)
	return ok(orderOut(res))
}

func orderOut(r commands.OrderResult) wire.OrderResult {
	return wire.OrderResult{OrderNo: r.OrderNo, Status: wire.ReviewStatus(r.Status), Position: r.Position}
}

// paging reads page (from 1) and size (1..100, default 20), plain digits; anything else is
// invalid_request. A
// page deeper than the lists read (projections.MaxPage), even one past int64, is
// page_out_of_range: no query runs with an offset that overflowed.
func paging(q url.Values) (page, size int, err error) {
	page, size = 1, 20
	if v := q.Get("size"); v != "" {
		if size, err = queryCount(v); err != nil || size < 1 || size > 100 {
			return 0, 0, errInvalidRequest(fmt.Errorf("size %q", v))
		}
	}
	if v := q.Get("page"); v != "" {
		page, err = queryCount(v)
		if errors.Is(err, strconv.ErrRange) || err == nil && page > projections.MaxPage(size) {
			return 0, 0, refuse(http.StatusBadRequest, wire.MessageKeyPageOutOfRange, fmt.Errorf("page %q of %d rows", v, size))
		}
		if err != nil || page < 1 {
			return 0, 0, errInvalidRequest(fmt.Errorf("page %q", v))
		}
	}
	return page, size, nil
}

func (s *server) fundRecords(c *call) (reply, error) {
	q := c.r.URL.Query()
	typ := q.Get("type")
	if typ == "" {
		typ = "all"
	}
	if typ != "all" && !slices.Contains(events.LineTypes(), typ) {
		return reply{}, errInvalidRequest(fmt.Errorf("type %q", typ))
	}
	page, size, err := paging(q)
	if err != nil {
		return reply{}, err
	}
	lines, more, err := s.read.FundHistory(c.ctx(), c.sess.MemberID, typ, page, size)
	if err != nil {
		return reply{}, fmt.Errorf("fund records: %w", err)
	}
	items := make([]wire.FundRecord, 0, len(lines))
	for _, l := range lines {
		items = append(items, fundRecordOut(l, s.now()))
	}
	return ok(wire.FundRecordPage{Items: items, Page: page, HasMore: more})
}

// fundRecordOut maps a journal line as its event labelled it: the optional fields are the details
// the line carries, whatever its type; a line with no currency (credit points) shows its plain
// amount.
func fundRecordOut(l projections.FundLine, now time.Time) wire.FundRecord {
	out := wire.FundRecord{
		OrderNo: l.OrderNo, Type: wire.FundRecordType(l.Type), Currency: l.Currency, Amount: l.Amount.String(),
		Status: wire.FundRecordStatus(l.Status), Remark: l.Remark, ChannelName: l.Details["channelName"],
		ProofFileId: l.Details["proofFileId"], CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(),
	}
	if l.Currency != "" {
		out.Amount = amountIn(l.Amount, l.Currency)
	}
	for name, dst := range map[string]**string{"bankName": &out.BankName, "cardLast4": &out.CardLast4, "rate": &out.Rate} {
		if v, ok := l.Details[name]; ok {
			*dst = &v
		}
	}
	if v, ok := l.Details["creditScore"]; ok {
		if score, err := strconv.Atoi(v); err == nil {
			out.CreditScore = &score
		}
	}
	if l.Symbol != "" {
		tradeLineOut(&out, l.Symbol, l.Details["settleDate"], now)
	}
	return out
}

// queueQuery reads an ops review queue's query: the status (def when absent, refused unless valid)
// and then the page.
func queueQuery(c *call, def string, valid func(string) bool) (status string, page, size int, err error) {
	q := c.r.URL.Query()
	status = q.Get("status")
	if status == "" {
		status = def
	}
	if !valid(status) {
		return "", 0, 0, errInvalidRequest(fmt.Errorf("status %q", status))
	}
	page, size, err = paging(q)
	return status, page, size, err
}

func reviewStatusValid(status string) bool { return wire.ReviewStatus(status).Valid() }

func (s *server) opsDeposits(c *call) (reply, error) {
	status, page, size, err := queueQuery(c, events.ReviewPending, reviewStatusValid)
	if err != nil {
		return reply{}, err
	}
	deps, more, err := reviews.Queue(c.ctx(), s.read.Reader, status, page, size)
	if err != nil {
		return reply{}, fmt.Errorf("deposit queue: %w", err)
	}
	items := make([]wire.OpsDeposit, 0, len(deps))
	for _, d := range deps {
		items = append(items, wire.OpsDeposit{
			OrderNo: d.OrderNo, Account: d.Account, Currency: d.Currency, Amount: money(d.Amount),
			ChannelName: d.ChannelName, ProofFileId: d.ProofFileID, Status: wire.ReviewStatus(d.Status),
			Remark: d.Remark, CreatedAt: d.CreatedAt.UTC(),
		})
	}
	return ok(wire.OpsDepositPage{Items: items, Page: page, HasMore: more})
}

// depositOwner finds whose deposit orderNo is; the commands act on that member's stream.
func (s *server) depositOwner(c *call) (string, string, error) {
	orderNo := mux.Vars(c.r)["orderNo"]
	if memberID, ok := s.owners.get(orderNo); ok {
		return memberID, orderNo, nil
	}
	d, err := reviews.ByOrderNo(c.ctx(), s.read.Reader, orderNo)
	if isNotFound(err) {
		s.catchUpHead(c.ctx())
		d, err = reviews.ByOrderNo(c.ctx(), s.read.Reader, orderNo)
	}
	if err != nil {
		if isNotFound(err) {
			return "", "", refuse(http.StatusNotFound, wire.MessageKeyOrderNotFound, nil)
		}
		return "", "", fmt.Errorf("deposit %s: %w", orderNo, err)
	}
	return d.MemberID, orderNo, nil
}

// reviewCommand is an ops decision on one member's order (approve or reject).
type reviewCommand func(ctx context.Context, meta commands.Meta, in commands.ReviewOrder) (commands.OrderResult, error)

// approve and reject serve deposits and withdrawals alike; owner says whose order it is.
func (s *server) approve(c *call, owner func(*call) (string, string, error), act reviewCommand) (reply, error) {
	var req wire.ApproveRequest
	if err := c.decode("ApproveRequest", &req); err != nil {
		return reply{}, err
	}
	remark := ""
	if req.Remark != nil {
		remark = *req.Remark
	}
	return s.review(c, owner, act, remark)
}

func (s *server) reject(c *call, owner func(*call) (string, string, error), act reviewCommand) (reply, error) {
	var req wire.RejectRequest
	if err := c.decode("RejectRequest", &req); err != nil {
		return reply{}, err
	}
	return s.review(c, owner, act, req.Remark)
}

func (s *server) review(c *call, owner func(*call) (string, string, error), act reviewCommand, remark string) (reply, error) {
	memberID, orderNo, err := owner(c)
	if err != nil {
		return reply{}, err
	}
	res, err := act(c.ctx(), c.meta(), commands.ReviewOrder{MemberID: memberID, OrderNo: orderNo, Remark: remark})
	if err != nil {
		return reply{}, err
	}
	return ok(orderOut(res))
}

func (s *server) approveDeposit(c *call) (reply, error) {
	return s.approve(c, s.depositOwner, s.cmd.ApproveDeposit)
}

func (s *server) rejectDeposit(c *call) (reply, error) {
	return s.reject(c, s.depositOwner, s.cmd.RejectDeposit)
}
