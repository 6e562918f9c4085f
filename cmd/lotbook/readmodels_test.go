package main

import (
	"slices"
	"testing"

	"github.com/lotbook/lotbook/projections"
)

// TestReadModelSignatures pins the shape of every read-model table this binary registers (the
// core's and each capability's): a table whose signature changes is dropped and rebuilt from the
// log on the next start, so a change here must be meant (and, when the columns stay but their
// meaning changes, the projector's version bumped instead).
func TestReadModelSignatures(t *testing.T) {
	want := []string{
		"balances|member_id:0|kind:0|asset:0|amount:0|position:1|key:member_id,kind,asset|ix:",
		"bank_cards|card_id:0|member_id:0|holder_name:0|bank_name:0|branch:0|bank_code:0|last4:0|ifsc:0|upi:0|bound_at:1|seq:1|position:1|key:card_id|ix:member_id, seq",
		"chat_conversations|member_id:0|status:0|last_side:0|last_text:0|last_file:0|closed_by:0|last_seq:1|last_at:1|last_position:1|started_at:1|member_delivered:1|member_read:1|ops_delivered:1|ops_read:1|key:member_id|ix:status, last_position;last_position",
		"chat_messages|member_id:0|seq:1|side:0|body:0|file_id:0|sent_by:0|sent_at:1|position:1|key:member_id,seq|ix:",
		"credit_scores|member_id:0|score:1|position:1|key:member_id|ix:",
		"deposit_channels|id:0|name:0|currency:0|min_amount:0|max_amount:0|time_window:0|enabled:1|updated_at:1|seq:1|position:1|key:id|ix:",
		"deposit_reviews|order_no:0|member_id:0|account:0|currency:0|amount:0|channel_id:0|channel_name:0|proof_file_id:0|status:0|remark:0|reviewed_by:0|created_at:1|updated_at:1|seq:1|position:1|key:order_no|ix:status, seq",
		"favorites|member_id:0|symbol:0|position:1|key:member_id,symbol|ix:member_id, position",
		"funds_accounts|member_id:0|account:0|key:member_id|ix:",
		"house_balances|account:0|asset:0|amount:0|position:1|key:account,asset|ix:",
		"journal_orders|member_id:0|order_no:0|instrument:0|label:0|position:1|key:member_id,order_no|ix:",
		"journal|member_id:0|line_id:0|type:0|order_no:0|asset:0|amount:0|account:0|status:0|remark:0|instrument:0|details:0|created_at:1|updated_at:1|seq:1|leg:1|position:1|key:member_id,line_id|ix:member_id, seq;member_id, type, seq",
		"member_files|file_id:0|member_id:0|content_type:0|size:1|width:1|height:1|created_at:1|key:file_id,member_id|ix:",
		"members|member_id:0|account:0|role:0|invite_code:0|inviter_id:0|real_name_status:0|fund_password_set:1|flags:0|created_at:1|updated_at:1|seq:1|position:1|key:member_id|ix:account;seq",
		"realname|member_id:0|account:0|submission_id:0|name:0|id_cipher:0|id_masked:0|front_file_id:0|back_file_id:0|status:0|remark:0|reviewed_by:0|submitted_at:1|updated_at:1|seq:1|position:1|key:member_id|ix:status, seq",
		"review_accounts|member_id:0|account:0|key:member_id|ix:",
		"sessions|token_hash:0|member_id:0|expires_at:1|created_at:1|key:token_hash|ix:member_id",
		"site_config|name:0|value:0|updated_at:1|position:1|key:name|ix:",
		"trade_notices|id:0|member_id:0|type:0|ratio:0|deadline:0|reason:0|positions:0|created_at:1|seq:1|key:id|ix:member_id, seq",
		"trade_orders|order_no:0|member_id:0|position_id:0|intent:0|symbol:0|name:0|kind:0|side:0|direction:0|type:0|shares:1|odd_lot:1|price:0|leverage:0|day_trade:1|placed_by:0|trading_day:0|status:0|filled:1|amount:0|commission:0|tax:0|reason:0|created_at:1|updated_at:1|seq:1|position:1|key:order_no|ix:member_id, seq;member_id, status, seq;status",
		"trade_positions|id:0|member_id:0|symbol:0|name:0|kind:0|direction:0|leverage:0|day_trade:1|open_day:0|status:0|shares:1|closing:1|bought:1|entry_amount:0|exit_shares:1|exit_amount:0|fees:0|tax:0|loan:0|margin:0|basis:0|profit:0|open_working:1|close_order:0|opened_at:1|closed_at:1|created_at:1|updated_at:1|seq:1|position:1|key:id|ix:member_id, status, seq;member_id, seq",
		"withdrawal_channels|id:0|name:0|currency:0|min_amount:0|max_amount:0|time_window:0|enabled:1|updated_at:1|seq:1|position:1|key:id|ix:",
		"withdrawals|order_no:0|member_id:0|account:0|currency:0|amount:0|channel_name:0|card_id:0|holder_name:0|bank_name:0|branch:0|bank_code:0|card_last4:0|status:0|remark:0|reviewed_by:0|created_at:1|updated_at:1|seq:1|position:1|key:order_no|ix:status, seq",
	}
	var got []string
	for _, p := range projections.Registered() {
		for _, tb := range p.Tables {
			got = append(got, tb.Signature())
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("read-model signatures changed:\n got %q\nwant %q", got, want)
	}
}
