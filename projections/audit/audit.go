// Package audit proves the ledger from the event log: an account's timeline with the balances
// after each event, and a full verification that every posting balances, no member balance ever
// goes negative, and every read model equals its replay.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
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

// Timeline merges the member's member- and account- streams by global position and carries the
// member's balances (per currency, available and frozen) forward through every event.
func Timeline(ctx context.Context, store events.Store, memberID string) ([]Entry, error) {
	var all []events.RecordedEvent
	for _, stream := range []string{events.MemberStream(memberID), events.AccountStream(memberID)} {
		evs, err := store.ReadStream(ctx, stream, 0)
		if err != nil {
			return nil, fmt.Errorf("audit: read %s: %w", stream, err)
		}
		all = append(all, evs...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Position < all[j].Position })

	avail, frozen := events.MemberAvailable(memberID), events.MemberFrozen(memberID)
	bal := map[string]Balance{}
	out := make([]Entry, 0, len(all))
	for _, ev := range all {
		p, err := events.DecodeRecorded(ev)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		summary, err := Summary(p)
		if err != nil {
			return nil, fmt.Errorf("audit: %s v%d: %w", ev.Stream, ev.Version, err)
		}
		postings := []events.Posting{}
		if m, ok := p.(events.MovesMoney); ok {
			postings = m.MoneyPostings()
		}
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
		snapshot := make(map[string]Balance, len(bal))
		for c, b := range bal {
			snapshot[c] = b
		}
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
			Balances:  snapshot,
		})
	}
	return out, nil
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
