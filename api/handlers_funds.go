package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/commands/rules/window"
	"github.com/lotbook/lotbook/events"
	"github.com/lotbook/lotbook/projections"
	"github.com/lotbook/lotbook/projections/config"
	"github.com/lotbook/lotbook/projections/reviews"
)

func (s *server) channels(c *httpx.Call) (httpx.Reply, error) {
	chs, err := config.Channels(c.Ctx(), s.read.Reader)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("channels: %w", err)
	}
	now := s.now()
	out := make([]wire.DepositChannel, 0, len(chs))
	for _, ch := range chs {
		if !ch.Enabled {
			continue // switched off by ops: members do not see it
		}
		out = append(out, wire.DepositChannel{
			Id: ch.ID, Name: ch.Name, Currency: ch.Currency, Min: httpx.Money(ch.Min), Max: httpx.Money(ch.Max),
			Window:  windowOut(ch.Window),
			OpenNow: window.Open(ch.Window, now, s.calendar),
		})
	}
	return httpx.OK(out)
}

func windowOut(w events.TimeWindow) wire.TimeWindow {
	days := w.Weekdays
	if days == nil {
		days = []int{}
	}
	return wire.TimeWindow{Weekdays: days, Open: w.Open, Close: w.Close, Tz: w.TZ,
		ClosedOnHolidays: w.ClosedOnHolidays, AlwaysOpen: w.AlwaysOpen}
}

func (s *server) requestDeposit(c *httpx.Call) (httpx.Reply, error) {
	var req wire.DepositRequest
	if err := c.Decode("DepositRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	res, err := s.cmd.RequestDeposit(c.Ctx(), c.Meta(), c.Sess.MemberID, commands.DepositInput{
		ChannelID: req.ChannelId, Amount: req.Amount, ProofFileID: req.ProofFileId, ChannelPassword: req.ChannelPassword,
	})
	if err != nil {
		return httpx.Reply{}, err
	}
	s.owners.add(res.OrderNo, c.Sess.MemberID)
	return httpx.OK(orderOut(res))
}

func orderOut(r commands.OrderResult) wire.OrderResult {
	return wire.OrderResult{OrderNo: r.OrderNo, Status: wire.ReviewStatus(r.Status), Position: r.Position}
}

func (s *server) fundRecords(c *httpx.Call) (httpx.Reply, error) {
	q := c.R.URL.Query()
	typ := q.Get("type")
	if typ == "" {
		typ = "all"
	}
	if typ != "all" && !slices.Contains(events.LineTypes(), typ) {
		return httpx.Reply{}, httpx.InvalidRequest(fmt.Errorf("type %q", typ))
	}
	page, size, err := httpx.Paging(q)
	if err != nil {
		return httpx.Reply{}, err
	}
	lines, more, err := s.read.FundHistory(c.Ctx(), c.Sess.MemberID, typ, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("fund records: %w", err)
	}
	items := make([]wire.FundRecord, 0, len(lines))
	for _, l := range lines {
		items = append(items, fundRecordOut(l, s.now()))
	}
	return httpx.OK(wire.FundRecordPage{Items: items, Page: page, HasMore: more})
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

func reviewStatusValid(status string) bool { return wire.ReviewStatus(status).Valid() }

func (s *server) opsDeposits(c *httpx.Call) (httpx.Reply, error) {
	status, page, size, err := httpx.QueueQuery(c, events.ReviewPending, reviewStatusValid)
	if err != nil {
		return httpx.Reply{}, err
	}
	deps, more, err := reviews.Queue(c.Ctx(), s.read.Reader, status, page, size)
	if err != nil {
		return httpx.Reply{}, fmt.Errorf("deposit queue: %w", err)
	}
	items := make([]wire.OpsDeposit, 0, len(deps))
	for _, d := range deps {
		items = append(items, wire.OpsDeposit{
			OrderNo: d.OrderNo, Account: d.Account, Currency: d.Currency, Amount: httpx.Money(d.Amount),
			ChannelName: d.ChannelName, ProofFileId: d.ProofFileID, Status: wire.ReviewStatus(d.Status),
			Remark: d.Remark, CreatedAt: d.CreatedAt.UTC(),
		})
	}
	return httpx.OK(wire.OpsDepositPage{Items: items, Page: page, HasMore: more})
}

// depositOwner finds whose deposit orderNo is; the commands act on that member's stream.
func (s *server) depositOwner(c *httpx.Call) (string, string, error) {
	orderNo := mux.Vars(c.R)["orderNo"]
	if memberID, ok := s.owners.get(orderNo); ok {
		return memberID, orderNo, nil
	}
	d, err := reviews.ByOrderNo(c.Ctx(), s.read.Reader, orderNo)
	if httpx.IsNotFound(err) {
		s.catchUpHead(c.Ctx())
		d, err = reviews.ByOrderNo(c.Ctx(), s.read.Reader, orderNo)
	}
	if err != nil {
		if httpx.IsNotFound(err) {
			return "", "", httpx.Refuse(http.StatusNotFound, wire.MessageKeyOrderNotFound, nil)
		}
		return "", "", fmt.Errorf("deposit %s: %w", orderNo, err)
	}
	return d.MemberID, orderNo, nil
}

// reviewCommand is an ops decision on one member's order (approve or reject).
type reviewCommand func(ctx context.Context, meta commands.Meta, in commands.ReviewOrder) (commands.OrderResult, error)

// approve and reject serve deposits and withdrawals alike; owner says whose order it is.
func (s *server) approve(c *httpx.Call, owner func(*httpx.Call) (string, string, error), act reviewCommand) (httpx.Reply, error) {
	remark, err := c.ApproveRemark()
	if err != nil {
		return httpx.Reply{}, err
	}
	return s.review(c, owner, act, remark)
}

func (s *server) reject(c *httpx.Call, owner func(*httpx.Call) (string, string, error), act reviewCommand) (httpx.Reply, error) {
	var req wire.RejectRequest
	if err := c.Decode("RejectRequest", &req); err != nil {
		return httpx.Reply{}, err
	}
	return s.review(c, owner, act, req.Remark)
}

func (s *server) review(c *httpx.Call, owner func(*httpx.Call) (string, string, error), act reviewCommand, remark string) (httpx.Reply, error) {
	memberID, orderNo, err := owner(c)
	if err != nil {
		return httpx.Reply{}, err
	}
	res, err := act(c.Ctx(), c.Meta(), commands.ReviewOrder{MemberID: memberID, OrderNo: orderNo, Remark: remark})
	if err != nil {
		return httpx.Reply{}, err
	}
	return httpx.OK(orderOut(res))
}

func (s *server) approveDeposit(c *httpx.Call) (httpx.Reply, error) {
	return s.approve(c, s.depositOwner, s.cmd.ApproveDeposit)
}

func (s *server) rejectDeposit(c *httpx.Call) (httpx.Reply, error) {
	return s.reject(c, s.depositOwner, s.cmd.RejectDeposit)
}
