package funds

import (
	"fmt"
	"testing"
)

func TestOrderOwnersForgetTheOldest(t *testing.T) {
	o := newOrderOwners()
	for i := range orderOwnersCap + 10 {
		o.add(fmt.Sprintf("D%d", i), fmt.Sprintf("m%d", i))
	}
	o.add("D20", "other") // known: the first owner stays
	for _, tc := range []struct {
		order, member string
		ok            bool
	}{
		{"D0", "", false},
		{"D9", "", false},
		{"D10", "m10", true},
		{"D20", "m20", true},
		{fmt.Sprintf("D%d", orderOwnersCap+9), fmt.Sprintf("m%d", orderOwnersCap+9), true},
		{"D-unknown", "", false},
	} {
		if m, ok := o.get(tc.order); m != tc.member || ok != tc.ok {
			t.Errorf("get(%s) = %q, %v; want %q, %v", tc.order, m, ok, tc.member, tc.ok)
		}
	}
	if len(o.m) != orderOwnersCap {
		t.Errorf("%d orders kept, want %d", len(o.m), orderOwnersCap)
	}
}
