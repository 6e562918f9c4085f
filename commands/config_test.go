package commands

import (
	"regexp"
	"testing"

	"github.com/lotbook/lotbook/events"
)

func TestInvites(t *testing.T) {
	root := build(&inviteState{}, nil, events.InviteCodeIssued{Code: "LOTBOOK"})
	if evs, err := decideIssueInvite(root, "LOTBOOK", ""); err != nil || len(evs) != 0 {
		t.Errorf("root again: %v %v", evs, err)
	}
	if _, err := decideIssueInvite(root, "LOTBOOK", "m1"); err != errCodeTaken {
		t.Errorf("taken code: %v", err)
	}
	if evs, _ := decideIssueInvite(&inviteState{}, "ABCDEFG", "m1"); len(evs) != 1 {
		t.Error("new code not issued")
	}

	seen := map[string]bool{}
	for n := 0; n < 12; n++ {
		c := inviteCandidate("3f1c2b8e-0000-5000-8000-000000000001", n)
		if !regexp.MustCompile(`^[ABCDEFGHJKMNPQRSTUVWXYZ]{7,8}$`).MatchString(c) || (n < 8) != (len(c) == 7) {
			t.Errorf("candidate %d: %q", n, c)
		}
		if seen[c] {
			t.Errorf("candidate %d repeats %q", n, c)
		}
		seen[c] = true
		if !validInviteCode(c) {
			t.Errorf("%q not a valid code", c)
		}
	}
	for _, c := range []string{"LOTBOOK", "ABCD", "A1B2C3"} {
		if !validInviteCode(c) {
			t.Errorf("%q refused", c)
		}
	}
	for _, c := range []string{"", "ABC", "lotbook", "LOT BOOK", "LOTBOOK-1", "ABCDEFGHIJKLMNOPQ"} {
		if validInviteCode(c) {
			t.Errorf("%q accepted", c)
		}
	}
}

func TestKinds(t *testing.T) {
	want := map[Kind]int{KindInvalid: 400, KindUnauthorized: 401, KindForbidden: 403, KindNotFound: 404,
		KindConflict: 409, KindRule: 422, KindRateLimited: 429, KindUnavailable: 503}
	for k, status := range want {
		if k.HTTPStatus() != status {
			t.Errorf("%v: %d, want %d", k, k.HTTPStatus(), status)
		}
	}
	var err error = Unavailable(errCodeTaken)
	if e, ok := AsError(err); !ok || e.Key != KeySystemBusy || e.Error() == "" {
		t.Fatalf("AsError: %v", err)
	}
}

func TestDisableInvite(t *testing.T) {
	issued := events.InviteCodeIssued{Code: "SPRING"}
	closed := events.InviteCodeDisabled{Code: "SPRING", Reason: "over"}
	for _, tc := range []struct {
		name    string
		history []events.Payload
		wantKey string
		wantEvs int
	}{
		{"unknown code", nil, KeyInviteCodeNotFound, 0},
		{"open code", []events.Payload{issued}, "", 1},
		{"already closed", []events.Payload{issued, closed}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := build(&inviteState{}, nil, tc.history...)
			evs, err := decideDisableInvite(i, "SPRING", "over")
			if tc.wantKey != "" {
				if e, ok := AsError(err); !ok || e.Key != tc.wantKey {
					t.Fatalf("err %v, want %s", err, tc.wantKey)
				}
				return
			}
			if err != nil || len(evs) != tc.wantEvs {
				t.Fatalf("evs %v err %v, want %d events", evs, err, tc.wantEvs)
			}
		})
	}
	if i := build(&inviteState{}, nil, issued, closed); !i.disabled || !i.issued {
		t.Errorf("state after disable: %+v", i)
	}
}
