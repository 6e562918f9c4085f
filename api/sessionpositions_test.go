package api

import (
	"strconv"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

func TestSessionPositionsKeepTheHighestAndStayBounded(t *testing.T) {
	p := newSessionPositions(4)
	p.note("a", 7)
	p.note("a", 5) // an older write answered late never lowers it
	if got := p.get("a"); got != 7 {
		t.Fatalf("a = %d, want 7", got)
	}
	p.note("b", 3)
	p.note("c", 4)
	p.note("d", 1) // four sessions: the bound
	if p.get("a") != 7 || p.get("b") != 3 || p.get("c") != 4 || p.get("d") != 1 {
		t.Fatalf("within the bound a=%d b=%d c=%d d=%d", p.get("a"), p.get("b"), p.get("c"), p.get("d"))
	}
	p.note("a", 8) // written again: the most recent writer
	p.note("e", 2) // past the bound: b, the session that wrote least recently, is forgotten
	if p.get("b") != 0 || p.get("a") != 8 || p.get("c") != 4 || p.get("d") != 1 || p.get("e") != 2 {
		t.Fatalf("past the bound a=%d b=%d c=%d d=%d e=%d", p.get("a"), p.get("b"), p.get("c"), p.get("d"), p.get("e"))
	}
	for i := range 1000 {
		p.note(strconv.Itoa(i), int64(i))
	}
	if n := p.pos.Len(); n > 4 {
		t.Fatalf("%d sessions remembered, bound 4", n)
	}
}

func TestAnswerPosition(t *testing.T) {
	for _, tc := range []struct {
		name string
		data any
		want int64
	}{
		{"command result", wire.CommandResult{Position: 12}, 12},
		{"pointer", &wire.CommandResult{Position: 13}, 13},
		{"session has none", wire.Session{Token: "t"}, 0},
		{"nil", nil, 0},
		{"not a struct", []int{1}, 0},
		{"a position that is not a log position", wire.TradePositionDetail{}, 0},
	} {
		if got := answerPosition(tc.data); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
