package chat

import "github.com/lotbook/lotbook/projections"

// The chats queue counts the conversations with member messages ops have not read.
func init() {
	projections.RegisterQueue(projections.Queue{ID: "chats", Path: "/ops/chats", Order: 50,
		Count: projections.CountQueue("chats", "SELECT COUNT(*) FROM chat_conversations c WHERE EXISTS "+
			"(SELECT 1 FROM chat_messages m WHERE m.member_id = c.member_id AND m.side = 'member' AND m.seq > c.ops_read)")})
}
