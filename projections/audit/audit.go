// Package audit proves the ledger from the event log: an account's timeline with the balances
// after each event, and a full verification that every posting balances, no member balance ever
// goes negative, and every read model equals its replay.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/lotbook/lotbook/events"
	"github.com/shopspring/decimal"
)

// Balance is a member's cash in one currency.
type Balance struct {
	Available decimal.Decimal `json:"available"`
	Frozen    decimal.Decimal `json:"frozen"`
}

// Entry is one event of a member's timeline with the balances after it.
type Entry struct {
	Position  int64              `json:"position"`
	Stream    string             `json:"stream"`
	Version   int64              `json:"version"`
	Type      string             `json:"type"`
	Time      time.Time          `json:"time"`
	Actor     string             `json:"actor"`
	CommandID string             `json:"commandId"`
	Summary   map[string]any     `json:"summary"`
	Postings  []events.Posting   `json:"postings"`
	Balances  map[string]Balance `json:"balances"`
}

// Timeline is the member's whole history: every page of Page, the balances carried from one
// page to the next.
func Timeline(ctx context.Context, store events.Store, memberID string) ([]Entry, error) {
	var out []Entry
	after, bal := int64(0), map[string]Balance{}
	for {
		page, more, err := Page(ctx, store, memberID, after, bal, pageSize)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if !more {
			return out, nil
		}
		last := page[len(page)-1]
		after, bal = last.Position, last.Balances
	}
}

// Page is one keyset page of the member's timeline: up to limit events of the member- and
// account- streams after global position after, merged by position, with the member's balances
// (per currency, available and frozen) carried forward from start, the balances at after. more
// reports whether events follow the page.
func Page(ctx context.Context, store events.Store, memberID string, after int64, start map[string]Balance, limit int) (entries []Entry, more bool, err error) {
	evs, err := readMerged(ctx, store, memberID, after, limit+1)
	if err != nil {
		return nil, false, err
	}
	if len(evs) > limit {
		evs, more = evs[:limit], true
	}
	bal := maps.Clone(start)
	if bal == nil {
		bal = map[string]Balance{}
	}
	out := make([]Entry, 0, len(evs))
	for _, ev := range evs {
		p, err := events.DecodeRecorded(ev)
		if err != nil {
			return nil, false, fmt.Errorf("audit: %w", err)
		}
		summary, err := Summary(p)
		if err != nil {
			return nil, false, fmt.Errorf("audit: %s v%d: %w", ev.Stream, ev.Version, err)
		}
		postings := memberPostings(p)
		carry(bal, memberID, postings)
		out = append(out, Entry{
			Position:  ev.Position,
			Stream:    ev.Stream,
			Version:   ev.Version,
			Type:      ev.Type,
			Time:      ev.Metadata.ServerTime.UTC(),
			Actor:     ev.Metadata.Actor,
			CommandID: ev.Metadata.CommandID,
			Summary:   summary,
			Postings:  postings,
			Balances:  maps.Clone(bal),
		})
	}
	return out, more, nil
}

// BalancesAt folds the member's postings up to and including global position at, reading the
// log in pages: the balances a page after at starts from when no checkpoint is at hand.
func BalancesAt(ctx context.Context, store events.Store, memberID string, at int64) (map[string]Balance, error) {
	bal := map[string]Balance{}
	for after := int64(0); after < at; {
		evs, err := readMerged(ctx, store, memberID, after, pageSize)
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			if ev.Position > at {
				return bal, nil
			}
			p, err := events.DecodeRecorded(ev)
			if err != nil {
				return nil, fmt.Errorf("audit: %w", err)
			}
			carry(bal, memberID, memberPostings(p))
		}
		if len(evs) < pageSize {
			break
		}
		after = evs[len(evs)-1].Position
	}
	return bal, nil
}

// readMerged reads up to limit events of the member's two streams after position after, in
// global order.
func readMerged(ctx context.Context, store events.Store, memberID string, after int64, limit int) ([]events.RecordedEvent, error) {
	var all []events.RecordedEvent
	for _, stream := range []string{events.MemberStream(memberID), events.AccountStream(memberID)} {
		evs, err := store.ReadStreamAfter(ctx, stream, after, limit)
		if err != nil {
			return nil, fmt.Errorf("audit: read %s after %d: %w", stream, after, err)
		}
		all = append(all, evs...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Position < all[j].Position })
	if len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

// memberPostings are the postings an event carries (none when it moves no money).
func memberPostings(p events.Payload) []events.Posting {
	if m, ok := p.(events.MovesMoney); ok {
		return m.MoneyPostings()
	}
	return []events.Posting{}
}

// carry adds the member's own legs of postings to bal.
func carry(bal map[string]Balance, memberID string, postings []events.Posting) {
	avail, frozen := events.MemberAvailable(memberID), events.MemberFrozen(memberID)
	for _, ps := range postings {
		b := bal[ps.Currency]
		switch ps.Account {
		case avail:
			b.Available = b.Available.Add(ps.Amount)
		case frozen:
			b.Frozen = b.Frozen.Add(ps.Amount)
		default:
			continue
		}
		bal[ps.Currency] = b
	}
}

// Summary is the payload as a JSON object without secrets (password, token and fund password
// hashes) and without postings, which the timeline lists on their own.
func Summary(p events.Payload) (map[string]any, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", p.EventName(), err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode %s: %w", p.EventName(), err)
	}
	for k := range m {
		if k == "postings" || secretField(k) {
			delete(m, k)
		}
	}
	return m, nil
}

// secretField matches the names under which the catalogue stores credentials and sealed
// personal numbers: passwordHash, hash (fund password), tokenHash, the AES-GCM ciphers and keyed
// hashes of ID and card numbers, and anything else naming a password, token or secret. The masked
// forms (idNumberMasked, last4) stay: they are what the member sees too.
func secretField(name string) bool {
	n := strings.ToLower(name)
	return n == "hash" || strings.Contains(n, "password") || strings.Contains(n, "token") ||
		strings.Contains(n, "secret") || strings.HasSuffix(n, "cipher") || strings.HasSuffix(n, "keyedhash")
}
