package favorites

import (
	"encoding/json"

	"github.com/lotbook/lotbook/commands/rules/watchlist"
)

// book's snapshot (commands.SnapshotPart) is the watchlist's own JSON form.

func (b *book) SnapshotVersion() int { return 1 }

func (b *book) MarshalSnapshot() ([]byte, error) { return json.Marshal(b.Book) }

func (b *book) UnmarshalSnapshot(data []byte) error {
	b.Book = &watchlist.Book{}
	return json.Unmarshal(data, b.Book)
}
