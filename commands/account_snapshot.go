package commands

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/lotbook/lotbook/events/varbuf"
)

// accountShell is the account aggregate's own fields, as a snapshot piece (its parts encode
// themselves). Its ledger follows from the stream's member id, which a restore starts from.
type accountShell Account

func (a *accountShell) SnapshotVersion() int { return 1 }

func (a *accountShell) MarshalSnapshot() ([]byte, error) { return json.Marshal(a.Balances) }

func (a *accountShell) UnmarshalSnapshot(b []byte) error {
	var bs map[string]Balance
	if err := json.Unmarshal(b, &bs); err != nil {
		return err
	}
	a.Balances = bs
	if a.Balances == nil {
		a.Balances = map[string]Balance{}
	}
	return nil
}

// appendCopy appends the balances copy of one record (snapshot()): a thousand records' copies
// are binary, their currencies sorted, each decimal exactly (its exponent kept).
func (a *Account) appendCopy(out []byte, copy any) []byte {
	bs, _ := copy.(map[string]Balance)
	out = binary.AppendUvarint(out, uint64(len(bs)))
	for _, c := range slices.Sorted(maps.Keys(bs)) {
		out = varbuf.Append(out, []byte(c))
		out = appendDecimal(appendDecimal(out, bs[c].Available), bs[c].Frozen)
	}
	return out
}

func (a *Account) parseCopy(b []byte) (any, error) {
	r := varbuf.Reader{B: b}
	n := r.Uvarint()
	bs := make(map[string]Balance, min(n, uint64(len(b))))
	for ; n > 0 && !r.Bad; n-- {
		c := string(r.Bytes())
		avail, err := readDecimal(&r)
		if err != nil {
			return nil, err
		}
		frozen, err := readDecimal(&r)
		if err != nil {
			return nil, err
		}
		bs[c] = Balance{Available: avail, Frozen: frozen}
	}
	if r.Bad || len(r.B) > 0 {
		return nil, fmt.Errorf("balances: %w", errBadSnapshot)
	}
	return bs, nil
}

func appendDecimal(out []byte, d decimal.Decimal) []byte {
	b, _ := d.MarshalBinary() // never fails
	return varbuf.Append(out, b)
}

func readDecimal(r *varbuf.Reader) (decimal.Decimal, error) {
	var d decimal.Decimal
	b := r.Bytes()
	if r.Bad {
		return d, errBadSnapshot
	}
	if err := d.UnmarshalBinary(b); err != nil {
		return d, fmt.Errorf("decimal: %w", err)
	}
	return d, nil
}
