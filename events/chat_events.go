package events

// Customer service chat: one conversation per member on stream chat-<memberID>, written by the
// member and by any ops user. Typing is never stored; messages, read marks and closing are.

// Chat sides: who wrote a message, whose mark a mark is.
const (
	ChatSideMember = "member"
	ChatSideOps    = "ops"
)

// ChatStream is the member's customer service conversation.
func ChatStream(memberID string) string { return "chat-" + memberID }

// ChatMessageSent is one message of a conversation: text, an image (an upload of the member's,
// by file id), or both. Seq numbers the conversation's messages from 1. By names the ops user
// who wrote an ops message (their account); it is empty for the member's own.
type ChatMessageSent struct {
	Seq    int64  `json:"seq"`
	Side   string `json:"side"`
	Text   string `json:"text,omitempty"`
	FileID string `json:"fileId,omitempty"`
	By     string `json:"by,omitempty"`
}

// ChatMarked moves one side's marks of the other side's messages: delivered (its app received
// them) and read (its user saw them), each up to a message seq. Marks only move forward.
type ChatMarked struct {
	Side      string `json:"side"`
	Delivered int64  `json:"delivered"`
	Read      int64  `json:"read"`
}

// ChatClosed is an ops user closing the conversation (By: their account); the member's next
// message opens it again.
type ChatClosed struct {
	By string `json:"by"`
}

func (ChatMessageSent) EventName() string { return "ChatMessageSent" }
func (ChatMarked) EventName() string      { return "ChatMarked" }
func (ChatClosed) EventName() string      { return "ChatClosed" }

func init() {
	register(ChatMessageSent{}, 1, nil)
	register(ChatMarked{}, 1, nil)
	register(ChatClosed{}, 1, nil)
}
