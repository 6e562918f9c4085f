package seed

import (
	"context"
	"fmt"

	"github.com/lotbook/lotbook/commands/chat"
	"github.com/lotbook/lotbook/events"
)

// The demo member's customer service conversation: a question, the answer of ops (unread by the
// member, so the screen shows a badge), written as the member and as the ops user.
func init() { Register("chat", seedChat) }

func seedChat(ctx context.Context, env Env) error {
	c := chat.New(env.Kernel)
	member := events.MemberID(MemberAccount)
	steps := []struct {
		step, text string
		ops        bool
	}{
		{"chat:1", "您好，請問入金審核大約需要多久？", false},
		{"chat:2", "您好，入金申請通常在 30 分鐘內完成審核；請在「資金紀錄」查看進度。", true},
		{"chat:3", "好的，謝謝！", false},
		{"chat:4", "不客氣，有任何問題歡迎隨時詢問。", true},
	}
	for _, s := range steps {
		m := Meta(s.step)
		var err error
		if s.ops {
			m.Actor = "ops:" + OpsAccount
			_, err = c.SendAsOps(ctx, m, chat.OpsMessage{MemberID: member, Text: s.text, By: OpsAccount})
		} else {
			m.Actor = "member:" + MemberAccount
			_, err = c.SendAsMember(ctx, m, chat.MemberMessage{MemberID: member, Text: s.text})
		}
		if err != nil {
			return fmt.Errorf("chat message %s: %w", s.step, err)
		}
	}
	m := Meta("chat:ops-read")
	m.Actor = "ops:" + OpsAccount
	if _, err := c.MarkSeen(ctx, m, chat.Mark{MemberID: member, Side: events.ChatSideOps, Delivered: 3, Read: 3}); err != nil {
		return fmt.Errorf("chat ops read mark: %w", err)
	}
	return nil
}
