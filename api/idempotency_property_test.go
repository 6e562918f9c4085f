package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/lotbook/lotbook/api/testimage"
	"math/rand/v2"
	"mime/multipart"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/events"
)

// Property of issue 9: random sequences of requests over every write route, sharing a small
// pool of Idempotency-Keys, never change an outcome compared with the same sequence under fresh
// keys, except that a key reused for another request answers 409 idempotency_key_reused and
// changes nothing. Run A sends the sequence with pooled keys; run B, on a fresh server, sends
// it without the requests A answered 409, each with a fresh key (requests that A sent
// identically under one key share one key in B: they are retries). Every answer of B is A's,
// and the two end in the same state.

// The seeds are fixed so that a failure replays; PostgreSQL runs the first (its requests cost
// several times SQLite's, and the run stays within about 20 s on this machine).
var keyReuseSeeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8}

const (
	keyReuseSteps = 120
	keyPool       = 4
)

func TestKeyReuseChangesNoOutcome(t *testing.T) {
	gens := keyReuseRoutes()
	for _, mod := range (&server{}).capabilities() {
		for _, rt := range mod.Routes() {
			if rt.Idem != httpx.IdemNone {
				if _, ok := gens[rt.Method+" "+rt.Path]; !ok {
					t.Errorf("write route %s %s has no request generator here", rt.Method, rt.Path)
				}
			}
		}
	}
	for _, db := range backends() {
		seeds := keyReuseSeeds
		if db.kind == "postgres" {
			seeds = seeds[:1]
		}
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("%s/seed%d", db.kind, seed), func(t *testing.T) {
				script := keyReuseScript(seed, gens)
				a := runKeyReuse(t, db, script, gens, nil)
				b := runKeyReuse(t, db, script, gens, a)
				if a.state != b.state {
					t.Fatalf("end states differ:\npooled keys: %s\nfresh keys:  %s", a.state, b.state)
				}
				seen := map[string]int{}
				for _, ans := range a.answers {
					seen[ans]++
				}
				t.Logf("answers under pooled keys: %v", seen)
			})
		}
	}
}

// kstep is one request of a script: a route, who sends it and a variant of its body, or an
// exact repeat of an earlier step; key is a pool index, or -1 for a fresh key.
type kstep struct {
	route       string
	who, arg    int
	key, repeat int
}

func keyReuseScript(seed uint64, gens map[string]kgen) []kstep {
	names := make([]string, 0, len(gens))
	for n := range gens {
		names = append(names, n)
	}
	slices.Sort(names)
	rng := rand.New(rand.NewPCG(seed, 0x1de))
	out := make([]kstep, 0, keyReuseSteps)
	for i := range keyReuseSteps {
		if i > 0 && rng.IntN(6) == 0 {
			out = append(out, kstep{repeat: rng.IntN(i)})
			continue
		}
		s := kstep{route: names[rng.IntN(len(names))], who: rng.IntN(2), arg: rng.IntN(4), key: -1, repeat: -1}
		if rng.IntN(5) < 2 {
			s.key = rng.IntN(keyPool)
		}
		out = append(out, s)
	}
	return out
}

// kreq is a request resolved against a run's world: who sends what.
type kreq struct {
	as           *client
	who          string // the caller, as the server tells callers apart
	method, path string
	body         []byte // JSON, or the uploaded file's content
	upload       bool
}

// fingerprint is what binds a key: caller, route and payload.
func (r kreq) fingerprint() string {
	sum := sha256.Sum256(r.body)
	return r.who + " " + r.method + " " + r.path + " " + hex.EncodeToString(sum[:6])
}

// kworld is one run's server and what its requests created, by member: the requests name
// orders, cards and quotes as "the first (second) one member m made", which is the same thing
// in both runs even though ids derive from the keys.
type kworld struct {
	h       *harness
	members [2]*client
	spare   [2]*client // second sessions, for logouts
	photos  [2][]string
	made    map[string][]string // kind/member -> ids in order
	// A block and a chip grab that members apply to, and one of each that ops may close or allot.
	block, spareBlock, offering, spareOffering string
}

func (w *kworld) nth(kind string, m, n int, none string) string {
	ids := w.made[kind+"/"+strconv.Itoa(m)]
	if len(ids) == 0 {
		return none
	}
	return ids[n%len(ids)]
}

type kgen func(w *kworld, who, arg int) kreq

func member(w *kworld, m int, method, path string, body any) kreq {
	return kreq{as: w.members[m], who: w.members[m].account, method: method, path: path, body: jsonBody(body)}
}

func ops(w *kworld, method, path string, body any) kreq {
	return kreq{as: w.h.ops, who: "ops", method: method, path: path, body: jsonBody(body)}
}

func jsonBody(v any) []byte {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// noNews is an item id no one wrote.
const noNews = "9b2c6f4e-0000-4000-8000-000000000000"

func pick[T any](arg int, vs ...T) T { return vs[arg%len(vs)] }

// keyReuseRoutes makes requests for every write route, keyed by "METHOD path" as the modules declare them.
// Variants mix successes and refusals; none disables an account or ends the main sessions.
func keyReuseRoutes() map[string]kgen {
	account := func(w *kworld, m int) string { return w.members[m].account }
	return map[string]kgen{
		"POST /api/vue/user/register": func(w *kworld, who, arg int) kreq {
			acct := pick(arg, "0911000001", "0911000002", account(w, who))
			return kreq{as: w.h.anon(), who: "anon", method: "POST", path: "/api/vue/user/register",
				body: jsonBody(map[string]string{"account": acct, "password": "secret123", "confirmPassword": "secret123", "inviteCode": "LOTBOOK"})}
		},
		"POST /api/vue/user/login": func(w *kworld, who, arg int) kreq {
			return kreq{as: w.h.anon(), who: "anon", method: "POST", path: "/api/vue/user/login",
				body: jsonBody(map[string]string{"account": account(w, who), "password": pick(arg, "secret123", "wrong123")})}
		},
		// No member of this world has a verified identity: every login by ID number is refused, and writes nothing.
		"POST /api/vue/user/loginById": func(w *kworld, who, arg int) kreq {
			return kreq{as: w.h.anon(), who: "anon", method: "POST", path: "/api/vue/user/loginById",
				body: jsonBody(map[string]string{"idNumber": "A123456789", "password": pick(arg, "secret123", "wrong123")})}
		},
		"POST /api/vue/user/logout": func(w *kworld, who, arg int) kreq {
			return kreq{as: w.spare[who], who: w.spare[who].account, method: "POST", path: "/api/vue/user/logout", body: []byte(`{}`)}
		},
		"POST /api/vue/user/password": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/password", pick(arg,
				map[string]string{"oldPassword": "wrong123", "newPassword": "secret456", "confirmPassword": "secret456"},
				map[string]string{"oldPassword": "secret123", "newPassword": "secret456", "confirmPassword": "secret789"}))
		},
		"POST /api/vue/user/fundPassword": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/fundPassword", map[string]string{
				"loginPassword": pick(arg, "secret123", "wrong123"), "fundPassword": "123456", "confirmFundPassword": "123456"})
		},
		"POST /api/vue/user/fundPassword/change": func(w *kworld, who, arg int) kreq {
			old, next := pick(arg, "123456", "135790", "000000"), pick(arg, "135790", "123456", "246802")
			return member(w, who, "POST", "/api/vue/user/fundPassword/change", map[string]string{
				"oldFundPassword": old, "fundPassword": next, "confirmFundPassword": next})
		},
		"POST /api/vue/files": func(w *kworld, who, arg int) kreq {
			var img bytes.Buffer
			img.Write(testimage.GradientPNG(50+who*8+arg%3, 30))
			return kreq{as: w.members[who], who: w.members[who].account, method: "POST", path: "/api/vue/files", body: img.Bytes(), upload: true}
		},
		"POST /api/vue/funds/deposits": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/funds/deposits", map[string]string{"channelId": "bank",
				"amount": pick(arg, "1000", "2000"), "proofFileId": w.photos[who][arg%len(w.photos[who])], "channelPassword": pick(arg, "8888", "8888", "8888", "0000")})
		},
		"POST /api/vue/ops/deposits/{orderNo}/approve": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/deposits/"+w.nth("deposit", who, arg, "D0")+"/approve", map[string]string{})
		},
		"POST /api/vue/ops/deposits/{orderNo}/reject": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/deposits/"+w.nth("deposit", who, arg, "D0")+"/reject", map[string]string{"remark": "unreadable"})
		},
		"POST /api/vue/ops/members/{account}/flags": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/members/"+account(w, who)+"/flags", map[string]any{
				"flag": pick(arg/2, "withdrawal_banned", "trade_banned"), "on": arg%2 == 0, "reason": "review"})
		},
		"POST /api/vue/user/realname": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/realname", map[string]string{"name": "王小明",
				"idNumber": pick(who, "A123456789", pick(arg, "B200000004", "F131104093")), "frontFileId": w.photos[who][0], "backFileId": w.photos[who][1]})
		},
		"POST /api/vue/ops/realname/{account}/approve": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/realname/"+account(w, who)+"/approve", map[string]string{})
		},
		"POST /api/vue/ops/realname/{account}/reject": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/realname/"+account(w, who)+"/reject", map[string]string{"remark": "blurred"})
		},
		"POST /api/vue/user/cards": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/cards", cardForm(pick(arg, "0123456789013", "0123456789014")))
		},
		"DELETE /api/vue/user/cards/{id}": func(w *kworld, who, arg int) kreq {
			return member(w, who, "DELETE", "/api/vue/user/cards/"+w.nth("card", who, arg, "none"), nil)
		},
		"POST /api/vue/funds/withdrawals": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/funds/withdrawals", map[string]string{"amount": pick(arg, "100", "300"),
				"cardId": w.nth("card", who, 0, "none"), "fundPassword": pick(arg/2, "123456", "654321")})
		},
		"POST /api/vue/funds/exchange/quote": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/funds/exchange/quote", map[string]string{"from": "TWD", "to": "USD", "amount": pick(arg, "1000", "100")})
		},
		"POST /api/vue/funds/exchange": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/funds/exchange", map[string]string{"quoteId": w.nth("quote", who, arg, "none")})
		},
		"POST /api/vue/ops/withdrawals/{orderNo}/approve": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/withdrawals/"+w.nth("withdrawal", who, arg, "W0")+"/approve", map[string]string{})
		},
		"POST /api/vue/ops/withdrawals/{orderNo}/reject": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/withdrawals/"+w.nth("withdrawal", who, arg, "W0")+"/reject", map[string]string{"remark": "closed"})
		},
		"POST /api/vue/chat/messages": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/chat/messages", pick(arg,
				map[string]string{"text": "hello"}, map[string]string{"fileId": w.photos[who][0]}, map[string]string{"text": ""}))
		},
		"POST /api/vue/chat/marks": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/chat/marks", map[string]int{"read": arg % 3})
		},
		"POST /api/vue/ops/chats/{account}/messages": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/chats/"+account(w, who)+"/messages", map[string]string{"text": pick(arg, "hi", "how can we help?")})
		},
		"POST /api/vue/ops/chats/{account}/marks": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/chats/"+account(w, who)+"/marks", map[string]int{"delivered": arg % 3})
		},
		"POST /api/vue/ops/chats/{account}/close": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/chats/"+account(w, who)+"/close", map[string]string{})
		},
		"POST /api/vue/user/favorites": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/favorites", map[string]string{"symbol": pick(arg, "2330", "2317")})
		},
		"DELETE /api/vue/user/favorites/{symbol}": func(w *kworld, who, arg int) kreq {
			return member(w, who, "DELETE", "/api/vue/user/favorites/"+pick(arg, "2330", "2317"), nil)
		},
		"POST /api/vue/trade/orders": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/trade/orders", map[string]any{"symbol": "2603", "direction": "long", "type": "limit",
				"lots": 1, "price": pick(arg, "19.5", "19", "25")})
		},
		"DELETE /api/vue/trade/orders/{orderNo}": func(w *kworld, who, arg int) kreq {
			return member(w, who, "DELETE", "/api/vue/trade/orders/"+w.nth("order", who, arg, "T0"), nil)
		},
		"POST /api/vue/trade/orders/{orderNo}/cancel": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/trade/orders/"+url.PathEscape(w.nth("order", who, arg, "T0"))+"/cancel", map[string]string{})
		},
		"POST /api/vue/trade/positions/{id}/close": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/trade/positions/none/close", map[string]any{"type": "market", "lots": 1})
		},
		// Additional credit margin on an order's position (holding nothing here), a foreign one, or a bad amount.
		"POST /api/vue/trade/positions/{id}/topUp": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/trade/positions/"+url.PathEscape(w.nth("order", pick(arg, who, 1-who), arg, "T0"))+"/topUp",
				map[string]string{"amount": pick(arg, "1000", "1.5", "0", "99999999")})
		},
		// An auction and a placement of 2330 or 2317 open on the harness's Monday, or refused terms.
		"POST /api/vue/ops/auction/auctions": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/auction/auctions", map[string]any{"symbol": pick(arg, "2330", "2317"), "lots": 10,
				"minPrice": pick(arg, "50", "60", "50", "-1"), "maxLotsPerBidder": 4, "depositRate": "20", "opensAt": "2026-03-02T01:00:00Z",
				"closesAt": "2026-03-03T06:00:00Z", "awardDate": "2026-03-04", "listingDate": "2026-03-09"})
		},
		"POST /api/vue/auction/auctions/{auctionId}/bid": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/auction/auctions/"+pick(arg, "2330-20260302", "2317-20260302")+"/bid",
				map[string]any{"price": pick(arg, "55", "60", "49"), "lots": pick(arg, 1, 2, 5)})
		},
		"POST /api/vue/ops/placement/placements": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/placement/placements", map[string]any{"symbol": pick(arg, "2330", "2317"),
				"price": pick(arg, "88", "90", "0"), "lots": 3, "maxLotsPerMember": 2, "opensAt": "2026-03-02T01:00:00Z",
				"closesAt": "2026-03-03T06:00:00Z", "listingDate": "2026-03-09"})
		},
		"POST /api/vue/placement/placements/{placementId}/apply": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/placement/placements/"+pick(arg, "2330-20260302", "2317-20260302")+"/apply",
				map[string]any{"lots": pick(arg, 1, 2, 3)})
		},
		"POST /api/vue/ops/placement/placements/{placementId}/allot": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/placement/placements/"+pick(arg, "2330-20260302", "2317-20260302")+"/allot", map[string]any{})
		},
		"POST /api/vue/block/{id}/apply": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/block/"+w.block+"/apply", map[string]any{"lots": pick(arg, 1, 2, 3),
				"bid": pick(arg/2, "19.6", "19.5", "20"), "password": pick(arg, "vip1", "vip1", "vip1", "nope")})
		},
		"POST /api/vue/ops/block": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/block", blockListing(w.h, pick(arg, "-2", "1", "12")))
		},
		"POST /api/vue/ops/block/{id}/close": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/block/"+pick(arg, w.spareBlock, uuid.NewSHA1(uuid.Nil, []byte("none")).String())+"/close", map[string]string{})
		},
		"POST /api/vue/ops/block/applications/{orderNo}/approve": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/block/applications/"+w.nth("blockapp", who, arg, "B0")+"/approve", map[string]string{})
		},
		"POST /api/vue/ops/block/applications/{orderNo}/reject": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/block/applications/"+w.nth("blockapp", who, arg, "B0")+"/reject", map[string]string{"remark": "full"})
		},
		// A loan within or above the limit, with the right fund password or a wrong one.
		"POST /api/vue/credit/loans": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/credit/loans", map[string]string{"amount": pick(arg, "1000", "5000000", "500"),
				"fundPassword": pick(arg/3, "123456", "123456", "654321")})
		},
		"POST /api/vue/credit/loans/{orderNo}/repay": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/credit/loans/"+w.nth("loan", pick(arg, who, 1-who), arg, "L0")+"/repay",
				map[string]string{"amount": pick(arg, "100", "99999999"), "fundPassword": "123456"})
		},
		"POST /api/vue/credit/seat": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/credit/seat", map[string]string{})
		},
		// Copy trading: opting in (a bad share or minimum refused), following the other member
		// (refused until it opted in, or below its minimum, or an unknown mentor), stopping a
		// follow of one's own or, refused, the other's.
		"POST /api/vue/copytrade/profile": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/copytrade/profile", map[string]any{"displayName": pick(arg, "Ann", "Bob", "Cy"),
				"minAmount": pick(arg, "10000", "5000", "1"), "windowDays": 30, "profitShare": pick(arg, "10", "20", "25")})
		},
		"POST /api/vue/copytrade/follows": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/copytrade/follows", map[string]any{
				"mentorId": pick(arg, events.MemberID(w.members[1-who].account), events.MemberID(w.members[1-who].account), "nobody"),
				"amount":   pick(arg, "10000", "6000", "20000")})
		},
		"POST /api/vue/copytrade/follows/{followId}/stop": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/copytrade/follows/"+w.nth("follow", pick(arg, who, 1-who), arg, "F0")+"/stop",
				map[string]any{"closePositions": arg%2 == 0})
		},
		"POST /api/vue/ops/credit/loans/{orderNo}/approve": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/credit/loans/"+w.nth("loan", who, arg, "L0")+"/approve", map[string]string{})
		},
		"POST /api/vue/ops/credit/loans/{orderNo}/reject": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/credit/loans/"+w.nth("loan", who, arg, "L0")+"/reject", map[string]string{"remark": "limit"})
		},
		"POST /api/vue/ops/credit/seats/{orderNo}/approve": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/credit/seats/"+w.nth("seat", who, arg, "S0")+"/approve", map[string]string{})
		},
		"POST /api/vue/ops/credit/seats/{orderNo}/reject": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/credit/seats/"+w.nth("seat", who, arg, "S0")+"/reject", map[string]string{"remark": "no"})
		},
		// AI quant: a subscription at, below or far above what the member holds, to a product or an
		// unknown one; leaving one's own or the other member's, keeping or closing.
		"POST /api/vue/quant/subscriptions": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/quant/subscriptions", map[string]string{
				"product": pick(arg/2, "momentum-0050", "dip-dividend-etf", "nope"), "amount": pick(arg, "100000", "99", "50000000")})
		},
		"POST /api/vue/quant/subscriptions/{subId}/leave": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/quant/subscriptions/"+w.nth("quant", pick(arg, who, 1-who), arg, "AQ0")+"/leave",
				map[string]bool{"close": arg%2 == 1})
		},
		// A second channel (the deposits here use "bank"), defined or refused for a bad range.
		"POST /api/vue/ops/channels": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/channels", map[string]any{"id": "spare", "name": "Spare", "currency": "TWD",
				"min": pick(arg, "1000", "5000", "9"), "max": pick(arg, "100000", "200000", "1"), "enabled": arg%2 == 0,
				"window": map[string]any{"weekdays": []int{1, 2, 3, 4, 5}, "open": "09:00", "close": "17:00", "tz": "Asia/Taipei",
					"closedOnHolidays": true, "alwaysOpen": false},
				"payee": map[string]string{"bank": "004 Bank of Taiwan", "branch": "0037", "account": "123456789012", "name": "lotbook"}})
		},
		"POST /api/vue/ops/invites": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/invites", map[string]string{"code": pick(arg, "SPARE1", "SPARE2", "no way")})
		},
		"POST /api/vue/ops/invites/{code}/disable": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/invites/"+pick(arg, "SPARE1", "SPARE2", "NONE99")+"/disable", map[string]string{"reason": "leaked"})
		},
		"POST /api/vue/ops/texts": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/texts", map[string]string{"name": pick(arg, "about", "fees", "nope"),
				"lang": pick(arg/3, "tw", "en"), "text": pick(arg, "關於我們", "About us")})
		},
		// One of the member's own photos, or the other member's (refused).
		"POST /api/vue/user/avatar": func(w *kworld, who, arg int) kreq {
			owner := pick(arg, who, who, 1-who)
			return member(w, who, "POST", "/api/vue/user/avatar", map[string]string{"fileId": w.photos[owner][arg%len(w.photos[owner])]})
		},
		"POST /api/vue/checkin": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/checkin", map[string]string{})
		},
		// A coupon of the member's own check-in on an order of theirs, or another member's coupon, or none.
		"POST /api/vue/coupons/{id}/apply": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/coupons/"+w.nth("coupon", pick(arg, who, 1-who, who), arg, "00000000-0000-0000-0000-000000000000")+"/apply",
				map[string]string{"orderNo": w.nth("order", who, arg, "T2026030200000000000000")})
		},
		"POST /api/vue/ops/coupons": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/coupons", map[string]any{"account": w.members[who].account, "value": pick(arg, "50", "0", "20"),
				"uses": 2, "validDays": 30, "reason": "goodwill"})
		},
		"POST /api/vue/chipgrab/{id}/claim": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/chipgrab/"+w.offering+"/claim", map[string]any{"lots": pick(arg, 1, 2, 3)})
		},
		"POST /api/vue/ops/chipgrab": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/chipgrab", chipGrabOffer(w.h, pick(arg, "20", "19.8", "30")))
		},
		"POST /api/vue/ops/chipgrab/{id}/allot": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/chipgrab/"+pick(arg, w.spareOffering, w.offering)+"/allot", map[string]string{})
		},
		// Issues of 1295 or 2073 whose window is open on the harness's Monday, or a refused price.
		"POST /api/vue/ops/subscription/issues": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/subscription/issues", map[string]any{"symbol": pick(arg, "1295", "2073"),
				"price": pick(arg, "50", "38", "50", "-1"), "referencePrice": "72.5", "lots": 10, "unitLots": 1,
				"opensAt": "2026-03-02T01:00:00Z", "closesAt": "2026-03-03T06:00:00Z", "drawDate": "2026-03-04", "deductionDate": "2026-03-05",
				"refundDate": "2026-03-06", "listingDate": "2026-03-09", "pe": "18.4", "industryPe": "25.1"})
		},
		"POST /api/vue/subscription/issues/{issueId}/apply": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/subscription/issues/"+pick(arg, "1295-20260302", "2073-20260302")+"/apply",
				map[string]any{"lots": pick(arg, 1, 1, 2)})
		},
		"POST /api/vue/ops/news": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/news", map[string]string{"kind": pick(who, "article", "notice"),
				"titleTw": "公告", "titleEn": "Notice", "bodyTw": "<p>內容</p>", "bodyEn": pick(arg, "<p>Body</p>", "<script>x</script>")})
		},
		"POST /api/vue/ops/news/{id}/edit": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/news/"+w.nth("news", who, arg, noNews)+"/edit", map[string]string{
				"titleTw": "公告", "titleEn": pick(arg, "Notice", "Corrected"), "bodyTw": "<p>內容</p>", "bodyEn": "<p>Body</p>"})
		},
		"POST /api/vue/ops/news/{id}/schedule": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/news/"+w.nth("news", who, arg, noNews)+"/schedule", map[string]string{
				"at": w.h.clock.Now().Add(time.Duration(arg) * time.Hour).Format(time.RFC3339)})
		},
		"POST /api/vue/ops/news/{id}/publish": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/news/"+w.nth("news", who, arg, noNews)+"/publish", map[string]string{})
		},
		"POST /api/vue/ops/news/{id}/withdraw": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/news/"+w.nth("news", who, arg, noNews)+"/withdraw", map[string]string{})
		},
		"POST /api/vue/news/items/{id}/read": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/news/items/"+w.nth("news", arg%2, arg/2, noNews)+"/read", map[string]string{})
		},
		// Stock lending: lend (members hold no shares here: refused as closed, quota full or
		// insufficient shares), recall own or another's, and ops' channel and symbol rules.
		"POST /api/vue/lending/records": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/lending/records", map[string]any{"symbol": pick(arg, "2603", "2330", "bad!"),
				"shares": pick(arg/2, 1000, 0, 5)})
		},
		"POST /api/vue/lending/records/{lendNo}/recall": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/lending/records/"+w.nth("lending", pick(arg, who, 1-who), arg, "LD0")+"/recall",
				map[string]string{})
		},
		"POST /api/vue/ops/lending/channel": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/lending/channel", map[string]any{"open": arg%2 == 0, "defaultRate": pick(arg, "0.02", "0.03", "0.5")})
		},
		"POST /api/vue/ops/lending/symbols/{symbol}": func(w *kworld, who, arg int) kreq {
			return ops(w, "POST", "/api/vue/ops/lending/symbols/"+pick(who, "2603", "2330"), map[string]any{"rate": pick(arg, "0.035", "", "0.2"),
				"quota": pick(arg/2, 100000, 0)})
		},
		// Watchlist groups and price alerts (issue 14): groups of either member (another's is not
		// found), the default group (never deleted); alerts that the fixed test market never fires.
		"POST /api/vue/user/watchlists": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/watchlists", map[string]string{"name": pick(arg, "AI", "ETF", "", "AI")})
		},
		"DELETE /api/vue/user/watchlists/{groupId}": func(w *kworld, who, arg int) kreq {
			return member(w, who, "DELETE", "/api/vue/user/watchlists/"+pick(arg, w.nth("wgroup", who, arg, "default"), "default", w.nth("wgroup", 1-who, arg, "none")), nil)
		},
		"POST /api/vue/user/watchlists/{groupId}/rename": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/watchlists/"+pick(arg, w.nth("wgroup", who, arg, "default"), "default", w.nth("wgroup", 1-who, arg, "none"))+"/rename",
				map[string]string{"name": pick(arg, "Tech", "半導體", "xxxxxxxxxxxxxxxxxxxxx")})
		},
		"POST /api/vue/user/watchlists/{groupId}/symbols": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/watchlists/"+pick(arg, w.nth("wgroup", who, arg, "default"), "default", w.nth("wgroup", 1-who, arg, "none"))+"/symbols",
				map[string]string{"symbol": pick(arg, "2330", "2317", "0050", "9999")})
		},
		"DELETE /api/vue/user/watchlists/{groupId}/symbols/{symbol}": func(w *kworld, who, arg int) kreq {
			return member(w, who, "DELETE", "/api/vue/user/watchlists/"+pick(arg, w.nth("wgroup", who, arg, "default"), "default")+"/symbols/"+pick(arg, "2330", "2317", "0050"), nil)
		},
		"POST /api/vue/user/watchlists/{groupId}/symbols/{symbol}/move": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/watchlists/"+pick(arg, w.nth("wgroup", who, arg, "default"), "default")+"/symbols/"+pick(arg, "2330", "2317", "0050")+"/move",
				map[string]int{"to": pick(arg, 0, 1, 5)})
		},
		"POST /api/vue/user/watchlists/{groupId}/symbols/{symbol}/pin": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/user/watchlists/"+pick(arg, w.nth("wgroup", who, arg, "default"), "default")+"/symbols/"+pick(arg, "2330", "2317", "0050")+"/pin",
				map[string]bool{"pinned": pick(arg, true, false)})
		},
		"POST /api/vue/alerts": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/alerts", map[string]string{"symbol": pick(arg, "2330", "2317"),
				"kind": pick(arg, "price_above", "fall_pct", "rise_pct", "price_below"), "value": pick(arg, "99999", "99", "50", "abc", "0.01")})
		},
		"DELETE /api/vue/alerts/{alertId}": func(w *kworld, who, arg int) kreq {
			return member(w, who, "DELETE", "/api/vue/alerts/"+pick(arg, w.nth("alert", who, arg, "AL0"), w.nth("alert", 1-who, arg, "AL0")), nil)
		},
		"POST /api/vue/alerts/notifications/read": func(w *kworld, who, arg int) kreq {
			return member(w, who, "POST", "/api/vue/alerts/notifications/read", map[string]int64{"through": pick(arg, int64(0), int64(1), int64(1)<<40)})
		},
	}
}

// blockListing is ops' listing of a block of 2603 at a premium, open for a day from the test clock.
func blockListing(h *harness, premium string) map[string]any {
	now := h.clock.Now()
	return map[string]any{"symbol": "2603", "premiumPercent": premium, "minLots": 1, "dailyCapLots": 2, "totalLots": 500, "password": "vip1",
		"opensAt": now.Add(-time.Minute), "closesAt": now.Add(24 * time.Hour)}
}

// chipGrabOffer is ops' offering of 3 lots of 2603 at price, at most 2 a member, open for a day.
func chipGrabOffer(h *harness, price string) map[string]any {
	now := h.clock.Now()
	return map[string]any{"symbol": "2603", "price": price, "quotaLots": 3, "maxLotsPerMember": 2,
		"opensAt": now.Add(-time.Minute), "closesAt": now.Add(24 * time.Hour)}
}

// kresult is what a run saw: each step's answer (status and message key; "" for a step run B
// skipped), the fingerprint each step sent, and the end state.
type kresult struct {
	answers []string
	sent    []string
	state   string
}

// runKeyReuse runs script on a fresh server: with pooled keys when pooled is nil (run A), else
// with fresh keys, skipping what run A answered 409 (run B).
func runKeyReuse(t *testing.T, db testDB, script []kstep, gens map[string]kgen, pooled *kresult) *kresult {
	h := newHarness(t, db, RateLimits{LoginPerAccount: 1000, LoginPerIP: 1000, RegisterPerIP: 1000})
	w := keyReuseWorld(t, h)
	pool := make([]string, keyPool)
	for i := range pool {
		pool[i] = uuid.NewString()
	}
	res := &kresult{answers: make([]string, len(script)), sent: make([]string, len(script))}
	reqs := make([]kreq, len(script))
	keys := make([]string, len(script))
	owner := map[string]string{} // run A: key -> the fingerprint that claimed it
	fresh := map[string]string{} // run B: pool key and A's fingerprint -> fresh key
	for i := range script {
		orig := i // the step this one repeats, if any
		for script[orig].repeat >= 0 {
			orig = script[orig].repeat
		}
		s := script[orig]
		if pooled != nil && pooled.answers[i] == "409 idempotency_key_reused" {
			continue
		}
		var r kreq
		if orig != i {
			r = reqs[script[i].repeat]
		} else {
			r = gens[s.route](w, s.who, s.arg)
		}
		reqs[i] = r
		fp := r.fingerprint()
		res.sent[i] = fp
		var key string
		switch {
		case orig != i && (pooled == nil || s.key < 0):
			key = keys[orig] // an exact retry
		case s.key < 0:
			key = uuid.NewString()
		case pooled == nil:
			key = pool[s.key]
		default: // run B: one fresh key per pooled key and request of run A
			id := strconv.Itoa(s.key) + " " + pooled.sent[i]
			if fresh[id] == "" {
				fresh[id] = uuid.NewString()
			}
			key = fresh[id]
		}
		keys[i] = key
		before := h.head()
		a := send(r, key)
		res.answers[i] = fmt.Sprintf("%d %s", a.code, a.Msg)
		w.remember(s, r, a)
		if pooled != nil {
			if res.answers[i] != pooled.answers[i] {
				t.Fatalf("step %d (%s): fresh keys answered %s, pooled keys %s", i, fp, res.answers[i], pooled.answers[i])
			}
			continue
		}
		if a.code == 401 {
			continue // a request without a session never reaches its key
		}
		claimed, had := owner[key]
		reused := had && claimed != fp
		if reused != (res.answers[i] == "409 idempotency_key_reused") {
			t.Fatalf("step %d (%s) under a key claimed by %q answered %s", i, fp, claimed, res.answers[i])
		}
		if reused && h.head() != before {
			t.Fatalf("step %d: a reused key changed the log", i)
		}
		if !had {
			owner[key] = fp // a refused request claims its key too
		}
	}
	res.state = w.state()
	return res
}

func send(r kreq, key string) answer {
	if !r.upload {
		return r.as.raw(r.method, r.path, "application/json", r.body, "Idempotency-Key", key)
	}
	var b bytes.Buffer
	mw := multipart.NewWriter(&b) // a new boundary each time: the key binds the file, not the framing
	fw, _ := mw.CreateFormFile("file", "proof.png")
	_, _ = fw.Write(r.body)
	_ = mw.Close()
	return r.as.raw("POST", "/api/vue/files", mw.FormDataContentType(), b.Bytes(), "Idempotency-Key", key)
}

// remember notes what a successful request created.
func (w *kworld) remember(s kstep, r kreq, a answer) {
	if a.code != 200 {
		return
	}
	var data map[string]any
	if err := json.Unmarshal(a.Data, &data); err != nil {
		return
	}
	kind, field := "", ""
	switch s.route {
	case "POST /api/vue/funds/deposits":
		kind, field = "deposit", "orderNo"
	case "POST /api/vue/funds/withdrawals":
		kind, field = "withdrawal", "orderNo"
	case "POST /api/vue/user/cards":
		kind, field = "card", "id"
	case "POST /api/vue/funds/exchange/quote":
		kind, field = "quote", "quoteId"
	case "POST /api/vue/trade/orders":
		kind, field = "order", "orderNo"
	case "POST /api/vue/block/{id}/apply":
		kind, field = "blockapp", "orderNo"
	case "POST /api/vue/checkin":
		kind, field = "coupon", "couponId"
	case "POST /api/vue/credit/loans":
		kind, field = "loan", "orderNo"
	case "POST /api/vue/credit/seat":
		kind, field = "seat", "orderNo"
	case "POST /api/vue/quant/subscriptions":
		kind, field = "quant", "subId"
	case "POST /api/vue/copytrade/follows":
		kind, field = "follow", "followId"
	case "POST /api/vue/ops/news":
		kind, field = "news", "id"
	case "POST /api/vue/lending/records":
		kind, field = "lending", "lendNo"
	case "POST /api/vue/user/watchlists":
		kind, field = "wgroup", "groupId"
	case "POST /api/vue/alerts":
		kind, field = "alert", "alertId"
	default:
		return
	}
	if id, ok := data[field].(string); ok {
		k := kind + "/" + strconv.Itoa(s.who)
		if !slices.Contains(w.made[k], id) {
			w.made[k] = append(w.made[k], id)
		}
	}
}

// keyReuseWorld prepares the same start in every run: member 0 verified with a fund password
// (123456), a card and 100,000 TWD; member 1 registered with 30,000 TWD; photos and a second
// session of each; a scripted book for 2603 that no order here crosses.
func keyReuseWorld(t *testing.T, h *harness) *kworld {
	h.withdrawals()
	th := newTradeHarness(t, h, "")
	th.mkt.book("2603", "20", "20", lvls("19.9", 5000), lvls("20.1", 5000))
	w := &kworld{h: h, made: map[string][]string{}}
	m0 := h.register("0912345678")
	m0.verify("A123456789")
	m0.setFundPassword()
	card := m0.bindCard("0123456789012")
	m0.fund("100000")
	m1 := h.register("0987654321")
	m1.fund("30000")
	w.members = [2]*client{m0, m1}
	for _, dst := range []*string{&w.block, &w.spareBlock} {
		a := h.ops.post("/api/vue/ops/block", blockListing(h, "-2"))
		want(t, a, 200, "ok")
		var r wire.BlockListResult
		a.data(t, &r)
		*dst = r.BlockId
	}
	for _, dst := range []*string{&w.offering, &w.spareOffering} {
		a := h.ops.post("/api/vue/ops/chipgrab", chipGrabOffer(h, "20"))
		want(t, a, 200, "ok")
		var r wire.ChipGrabAllotResult
		a.data(t, &r)
		*dst = r.OfferingId
	}
	w.made["card/0"] = []string{card.Id}
	for m, c := range w.members {
		for i := range 3 {
			a := c.upload("id.png", testimage.GradientPNG(70+m*5+i, 40))
			want(t, a, 200, "ok")
			var f struct{ Id string }
			a.data(t, &f)
			w.photos[m] = append(w.photos[m], f.Id)
		}
		w.spare[m] = h.login(c.account, "secret123")
	}
	return w
}

// state is what members and ops can read at the end, ids that derive from keys left out.
func (w *kworld) state() string {
	w.h.catchUp()
	var out bytes.Buffer
	read := func(c *client, path string) {
		a := c.get(path, "Lotbook-Position", strconv.FormatInt(w.h.head(), 10))
		var v any
		if err := json.Unmarshal(a.Data, &v); err != nil {
			w.h.t.Fatalf("%s: %v", path, err)
		}
		b, _ := json.Marshal(normalise(v))
		fmt.Fprintf(&out, "%s %s %s\n", path, a.Msg, b)
	}
	for _, c := range w.members {
		for _, p := range []string{"/api/vue/user/info", "/api/vue/funds/balances", "/api/vue/user/cards", "/api/vue/user/realname",
			"/api/vue/funds/records?type=all", "/api/vue/trade/orders?status=all", "/api/vue/block/applications", "/api/vue/chipgrab/claims",
			"/api/vue/block", "/api/vue/chipgrab"} {
			read(c, p)
		}
		// Only the symbols: the quotes around them move with the shared market.
		var favs []struct{ Symbol string }
		if err := json.Unmarshal(c.post("/api/vue/user/Optionallist", map[string]string{"type": "all"}).Data, &favs); err != nil {
			w.h.t.Fatal(err)
		}
		fmt.Fprintf(&out, "favorites %v\n", favs)
	}
	for _, c := range w.members {
		read(c, "/api/vue/news/unread")
	}
	for _, c := range w.members {
		read(c, "/api/vue/lending")
		read(c, "/api/vue/lending/records")
	}
	read(w.h.ops, "/api/vue/ops/lending")
	for _, c := range w.members {
		for _, p := range []string{"/api/vue/user/watchlists", "/api/vue/alerts", "/api/vue/alerts/notifications"} {
			read(c, p)
		}
	}
	read(w.h.ops, "/api/vue/ops/news?size=100")
	for _, q := range []string{"/api/vue/ops/deposits", "/api/vue/ops/withdrawals", "/api/vue/ops/realname", "/api/vue/ops/block/applications"} {
		for _, status := range []string{"pending", "approved", "rejected"} {
			read(w.h.ops, q+"?size=100&status="+status)
		}
	}
	return out.String()
}

// idFields derive from command ids, or are positions and tokens, so differ between runs for the
// same thing; the setup's identity photos and deposit proofs differ too (harness photos are
// unique per process, since one proof backs one deposit).
var idFields = map[string]bool{"orderNo": true, "id": true, "cardId": true, "quoteId": true, "positionId": true,
	"token": true, "position": true, "submissionId": true, "frontFileId": true, "backFileId": true, "proofFileId": true,
	"blockId": true, "offeringId": true, "groupId": true, "alertId": true, "through": true}

// normalise blanks idFields and sorts lists (their order may follow ids).
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if idFields[k] {
				x[k] = "*"
			} else {
				x[k] = normalise(e)
			}
		}
		return x
	case []any:
		keys := make([]string, len(x))
		for i, e := range x {
			b, _ := json.Marshal(normalise(e))
			keys[i] = string(b)
		}
		slices.Sort(keys)
		return keys
	}
	return v
}
