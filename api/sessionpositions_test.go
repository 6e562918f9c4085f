package api

import (
	"strconv"
	"testing"

	"github.com/lotbook/lotbook/api/wire"
)

func TestSessionPositionsKeepTheHighestAndStayBounded(t *testing.T) {
	p := newSessionPositions(4) // two generations of two sessions
	p.note("a", 7)
	p.note("a", 5) // an older write answered late never lowers it
	if got := p.get("a"); got != 7 {
		t.Fatalf("a = %d, want 7", got)
	}
	p.note("b", 3)
	p.note("c", 4) // the current generation is full: a and b move to the previous one
	if p.get("a") != 7 || p.get("b") != 3 || p.get("c") != 4 {
		t.Fatalf("after rotation a=%d b=%d c=%d", p.get("a"), p.get("b"), p.get("c"))
	}
	p.note("a", 8) // written again: back in the current generation
	p.note("d", 1) // rotates again: b, the session that wrote least recently, is forgotten
	if p.get("b") != 0 || p.get("a") != 8 || p.get("c") != 4 || p.get("d") != 1 {
		t.Fatalf("after the second rotation a=%d b=%d c=%d d=%d", p.get("a"), p.get("b"), p.get("c"), p.get("d"))
	}
	for i := range 1000 {
		p.note(strconv.Itoa(i), int64(i))
	}
	if n := len(p.cur) + len(p.prev); n > 4 {
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
