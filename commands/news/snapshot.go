package news

import "encoding/json"

// reads' snapshot (commands.SnapshotPart) is the ids of the items read.

func (r *reads) SnapshotVersion() int { return 1 }

func (r *reads) MarshalSnapshot() ([]byte, error) { return json.Marshal(r.ids) }

func (r *reads) UnmarshalSnapshot(b []byte) error { return json.Unmarshal(b, &r.ids) }
