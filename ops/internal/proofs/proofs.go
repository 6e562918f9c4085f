// Package proofs records deposit proofs for the ops tools' load. One proof backs one deposit,
// and uploading thousands of images over HTTP (rate limited per member) would take longer than
// a run, so the tools append the members' FileUploaded events straight to the log while the
// server is down. A deposit only checks that its member uploaded the file it names.
package proofs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/lotbook/lotbook/events"
)

// Record appends n FileUploaded events to the member's stream in one append and returns their
// file ids and the log position of the last.
func Record(ctx context.Context, store events.Store, memberID string, n int) ([]string, int64, error) {
	stream := events.MemberStream(memberID)
	existing, err := store.ReadStream(ctx, stream, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", stream, err)
	}
	ids := make([]string, n)
	batch := make([]events.EventData, n)
	for i := range n {
		sum := sha256.Sum256(fmt.Appendf(nil, "proof %s %d %d", memberID, len(existing), i))
		ids[i] = hex.EncodeToString(sum[:])
		typ, data, err := events.Encode(events.FileUploaded{FileID: ids[i], ContentType: "image/png", Size: 100, Width: 32, Height: 32})
		if err != nil {
			return nil, 0, err
		}
		batch[i] = events.EventData{ID: uuid.New(), Type: typ, Data: data,
			Metadata: events.Metadata{CommandID: uuid.NewString(), Actor: "system", ServerTime: time.Now().UTC()}}
	}
	if n == 0 {
		return nil, 0, nil
	}
	res, err := store.Append(ctx, stream, int64(len(existing)), batch)
	if err != nil {
		return nil, 0, fmt.Errorf("record proofs in %s: %w", stream, err)
	}
	return ids, res.Position, nil
}
