package main

import (
	"slices"
	"testing"
)

// A -reuse run must deposit only with the proofs earlier runs left unused, leave out the members
// with none left, and refuse a log where no member has any rather than send deposits the server
// refuses.
func TestMembersKeepOnlyUnusedProofs(t *testing.T) {
	dir := t.TempDir()
	a := &member{s: &session{Account: "0920000000", Token: "t0"}, id: "m0", proofs: []string{"p1", "p2", "p3"}}
	b := &member{s: &session{Account: "0920000001", Token: "t1"}, id: "m1", proofs: []string{"q1", "q2"}}
	a.proof()
	b.proof()
	if err := writeMembers(dir, []*member{a, b}, 42); err != nil {
		t.Fatal(err)
	}
	got, head, err := readMembers(dir)
	if err != nil {
		t.Fatal(err)
	}
	if head != 42 || len(got) != 2 || got[0].id != "m0" || got[0].s.Token != "t0" || got[1].s.Account != "0920000001" {
		t.Fatalf("read back head %d, members %+v", head, got)
	}
	if !slices.Equal(got[0].proofs, []string{"p2", "p3"}) || !slices.Equal(got[1].proofs, []string{"q2"}) {
		t.Fatalf("proofs %v and %v, want the unused ones", got[0].proofs, got[1].proofs)
	}
	got[1].proof()
	if err := writeMembers(dir, got, 43); err != nil {
		t.Fatal(err)
	}
	left, _, err := readMembers(dir)
	if err != nil || len(left) != 1 || left[0].id != "m0" {
		t.Fatalf("read back %v, %v: want only the member with proofs left", left, err)
	}
	left[0].proof()
	left[0].proof()
	if err := writeMembers(dir, left, 44); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readMembers(dir); err == nil {
		t.Fatal("members without proofs left were read back without an error")
	}
}
