package sqlitedb

import "testing"

// The WAL-buffering VFS is refused unless every commit syncs the WAL.
func TestSyncsEveryCommit(t *testing.T) {
	for _, tc := range []struct {
		pragmas []string
		want    bool
	}{
		{[]string{"journal_mode=WAL", "synchronous=FULL"}, true},
		{[]string{"synchronous = extra"}, true},
		{[]string{"synchronous=2"}, true},
		{[]string{"synchronous=NORMAL"}, false},
		{[]string{"synchronous=FULL", "synchronous=NORMAL"}, false},
		{[]string{"journal_mode=WAL"}, false},
		{nil, false},
	} {
		if got := syncsEveryCommit(tc.pragmas); got != tc.want {
			t.Errorf("syncsEveryCommit(%q) = %v, want %v", tc.pragmas, got, tc.want)
		}
	}
}
