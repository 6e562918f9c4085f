package credit

import "testing"

func TestApply(t *testing.T) {
	cases := []struct {
		score          int
		reason         string
		after, applied int
	}{
		{100, ReasonDepositApproved, 100, 0}, // capped
		{99, ReasonDepositApproved, 100, 1},
		{100, ReasonDepositRejected, 95, -5},
		{3, ReasonDepositRejected, 0, -3}, // floored
		{0, ReasonDepositRejected, 0, 0},
		{50, "unknown", 50, 0},
	}
	for _, c := range cases {
		after, applied := Apply(c.score, c.reason)
		if after != c.after || applied != c.applied {
			t.Errorf("Apply(%d, %s) = %d, %d; want %d, %d", c.score, c.reason, after, applied, c.after, c.applied)
		}
	}
}

func TestThreshold(t *testing.T) {
	if !MayWithdraw(60) || MayWithdraw(59) || !MayWithdraw(Start) {
		t.Error("threshold")
	}
	// Nine rejected deposits from the start take a member below the threshold, eight do not.
	s := Start
	for i := 0; i < 8; i++ {
		s, _ = Apply(s, ReasonDepositRejected)
	}
	if !MayWithdraw(s) {
		t.Errorf("after 8 rejections score %d refuses", s)
	}
	s, _ = Apply(s, ReasonDepositRejected)
	if MayWithdraw(s) {
		t.Errorf("after 9 rejections score %d allows", s)
	}
}
