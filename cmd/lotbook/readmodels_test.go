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
		"auction_auctions|auction_id:0|symbol:0|name:0|market:0|currency:0|lots:1|lot_shares:1|max_lots:1|min_price:0|deposit_rate:0|opens_at:1|closes_at:1|award_date:0|listing_date:0|commitment:0|algorithm:0|seed:0|awarded:1|awarded_shares:1|listed_at:1|position:1|key:auction_id|ix:opens_at",
		"auction_bids|bid_no:0|auction_id:0|member_id:0|symbol:0|name:0|price:0|lots:1|shares:1|amount:0|deposit:0|state:0|awarded:1|cost:0|from_available:0|released:0|delivered:1|placed_at:1|updated_at:1|position:1|key:bid_no|ix:member_id, placed_at;auction_id, bid_no",
		"balances|member_id:0|kind:0|asset:0|amount:0|position:1|key:member_id,kind,asset|ix:",
		"bank_cards|card_id:0|member_id:0|holder_name:0|bank_name:0|branch:0|bank_code:0|last4:0|ifsc:0|upi:0|bound_at:1|seq:1|position:1|key:card_id|ix:member_id, seq",
		"block_accounts|member_id:0|account:0|key:member_id|ix:",
		"block_applications|order_no:0|member_id:0|account:0|block_id:0|symbol:0|name:0|price:0|bid:0|amount:0|status:0|remark:0|reviewed_by:0|lots:1|filled_lots:1|created_at:1|updated_at:1|seq:1|key:order_no|ix:member_id, seq;status, seq;block_id",
		"block_listings|block_id:0|symbol:0|name:0|reference_price:0|premium_rate:0|price:0|min_lots:1|daily_cap_lots:1|has_password:1|opens_at:1|closes_at:1|closed:1|closed_at:1|seq:1|total_lots:1|key:block_id|ix:seq",
		"block_names|member_id:0|submitted:0|name:0|key:member_id|ix:",
		"chat_conversations|member_id:0|status:0|last_side:0|last_text:0|last_file:0|closed_by:0|last_seq:1|last_at:1|last_position:1|started_at:1|member_delivered:1|member_read:1|ops_delivered:1|ops_read:1|key:member_id|ix:status, last_position;last_position",
		"chat_messages|member_id:0|seq:1|side:0|body:0|file_id:0|sent_by:0|sent_at:1|position:1|key:member_id,seq|ix:",
		"chipgrab_accounts|member_id:0|account:0|key:member_id|ix:",
		"chipgrab_claims|order_no:0|member_id:0|offering_id:0|amount:0|status:0|reason:0|lots:1|created_at:1|updated_at:1|seq:1|key:order_no|ix:member_id, seq;offering_id",
		"chipgrab_names|member_id:0|submitted:0|name:0|key:member_id|ix:",
		"chipgrab_offerings|offering_id:0|symbol:0|name:0|price:0|quota_lots:1|remaining_lots:1|max_lots_per_member:1|opens_at:1|closes_at:1|updated_at:1|allotting:1|seq:1|key:offering_id|ix:seq",
		"console_changes|position:1|kind:0|subject:0|actor:0|before_value:0|after_value:0|at:1|key:position|ix:kind, subject, position",
		"console_invite_uses|member_id:0|code:0|account:0|registered_at:1|position:1|key:member_id|ix:code, position",
		"console_invites|code:0|created_by:0|reason:0|disabled_by:0|disabled:1|created_at:1|disabled_at:1|seq:1|position:1|key:code|ix:seq",
		"copytrade_fills|seq:1|member_id:0|position_id:0|open:1|shares:1|cash:0|profit:0|at:1|key:seq|ix:member_id, seq",
		"copytrade_follows|follow_id:0|follower_id:0|mentor_id:0|mentor_name:0|amount:0|spent:0|returned:0|proceeds:0|released:0|profit:0|share:0|profit_share:0|state:0|ends:0|refused_reason:0|refused_symbol:0|refused_direction:0|refused_shares:1|refused_at:1|days:1|closed:1|created_at:1|updated_at:1|seq:1|key:follow_id|ix:follower_id, seq;mentor_id, seq",
		"copytrade_mentors|member_id:0|display_name:0|min_amount:0|profit_share:0|share_income:0|window_days:1|since:1|updated_at:1|seq:1|key:member_id|ix:seq",
		"copytrade_orders|order_no:0|member_id:0|follow_id:0|intent:0|symbol:0|name:0|side:0|direction:0|price:0|status:0|profit:0|shares:1|filled:1|created_at:1|updated_at:1|seq:1|key:order_no|ix:follow_id, seq",
		"coupon_checkins|member_id:0|last_day:0|streak:1|total:1|updated_at:1|key:member_id|ix:",
		"coupons|coupon_id:0|member_id:0|kind:0|value:0|source:0|reason:0|actor:0|expiry_day:0|discount:0|last_order:0|uses:1|used:1|reserved:1|expires_at:1|created_at:1|updated_at:1|seq:1|key:coupon_id|ix:member_id, seq;seq",
		"credit_accounts|member_id:0|account:0|key:member_id|ix:",
		"credit_loans|order_no:0|member_id:0|account:0|amount:0|annual_rate:0|status:0|review:0|principal:0|interest:0|interest_total:0|repaid:0|remark:0|reviewed_by:0|disbursed_day:0|accrued_through:0|created_at:1|updated_at:1|seq:1|key:order_no|ix:member_id, seq;status, seq",
		"credit_scores|member_id:0|score:1|position:1|key:member_id|ix:",
		"credit_seats|order_no:0|member_id:0|account:0|status:0|remark:0|reviewed_by:0|created_at:1|updated_at:1|seq:1|key:order_no|ix:member_id, seq;status, seq",
		"deposit_channels|id:0|name:0|currency:0|min_amount:0|max_amount:0|time_window:0|enabled:1|updated_at:1|seq:1|position:1|key:id|ix:",
		"deposit_payees|id:0|bank:0|branch:0|account:0|holder:0|position:1|key:id|ix:",
		"deposit_reviews|order_no:0|member_id:0|account:0|currency:0|amount:0|channel_id:0|channel_name:0|proof_file_id:0|status:0|remark:0|reviewed_by:0|created_at:1|updated_at:1|seq:1|position:1|key:order_no|ix:status, seq",
		"favorites|member_id:0|symbol:0|position:1|key:member_id,symbol|ix:member_id, position",
		"funds_accounts|member_id:0|account:0|key:member_id|ix:",
		"house_balances|account:0|asset:0|amount:0|position:1|key:account,asset|ix:",
		"journal_orders|member_id:0|order_no:0|instrument:0|label:0|position:1|key:member_id,order_no|ix:",
		"journal|member_id:0|line_id:0|type:0|order_no:0|asset:0|amount:0|account:0|status:0|remark:0|instrument:0|details:0|created_at:1|updated_at:1|seq:1|leg:1|position:1|key:member_id,line_id|ix:member_id, seq;member_id, type, seq",
		"lending_accounts|member_id:0|account:0|key:member_id|ix:",
		"lending_names|member_id:0|submitted:0|name:0|key:member_id|ix:",
		"lending_records|lend_no:0|member_id:0|symbol:0|name:0|shares:1|annual_rate:0|status:0|fees:0|lent_day:0|accrued_through:0|recalled_day:0|created_at:1|updated_at:1|seq:1|key:lend_no|ix:member_id, status, seq;status, seq",
		"member_files|file_id:0|member_id:0|content_type:0|size:1|width:1|height:1|created_at:1|key:file_id,member_id|ix:",
		"members|member_id:0|account:0|role:0|invite_code:0|inviter_id:0|real_name_status:0|fund_password_set:1|flags:0|avatar:0|created_at:1|updated_at:1|seq:1|position:1|key:member_id|ix:account;seq",
		"news_items|id:0|kind:0|state:0|title_tw:0|title_en:0|body_tw:0|body_en:0|created_by:0|updated_by:0|at:1|created_at:1|updated_at:1|seq:1|position:1|key:id|ix:kind, state, at;kind, seq",
		"news_log|news_id:0|action:0|actor:0|at:1|position:1|key:position|ix:news_id, position",
		"news_reads|member_id:0|news_id:0|position:1|key:member_id,news_id|ix:",
		"placement_applications|application_no:0|placement_id:0|member_id:0|symbol:0|name:0|price:0|lots:1|shares:1|amount:0|state:0|allotted:1|cost:0|refunded:0|delivered:1|applied_at:1|updated_at:1|position:1|key:application_no|ix:member_id, applied_at;placement_id, application_no",
		"placement_placements|placement_id:0|symbol:0|name:0|market:0|currency:0|price:0|lots:1|lot_shares:1|max_lots:1|opens_at:1|closes_at:1|listing_date:0|commitment:0|algorithm:0|seed:0|requested:1|allotted:1|allotted_shares:1|listed_at:1|position:1|key:placement_id|ix:opens_at",
		"price_alert_reads|member_id:0|through:1|key:member_id|ix:",
		"price_alerts|alert_id:0|member_id:0|symbol:0|kind:0|value:0|status:0|price:0|prev_close:0|created_at:1|fired_at:1|quote_at:1|seq:1|fired_seq:1|key:alert_id|ix:member_id, seq;member_id, fired_seq",
		"quant_intents|command_id:0|sub_id:0|member_id:0|symbol:0|key:command_id|ix:",
		"quant_positions|position_id:0|sub_id:0|member_id:0|symbol:0|basis:0|shares:1|seq:1|key:position_id|ix:sub_id, seq",
		"quant_subscriptions|sub_id:0|member_id:0|product:0|amount:0|held:0|state:0|spent:0|proceeds:0|realized:0|orders:1|close_all:1|created_at:1|updated_at:1|ended_at:1|seq:1|key:sub_id|ix:member_id, seq",
		"realname|member_id:0|account:0|submission_id:0|name:0|id_cipher:0|id_hash:0|id_masked:0|front_file_id:0|back_file_id:0|status:0|remark:0|reviewed_by:0|submitted_at:1|updated_at:1|seq:1|position:1|key:member_id|ix:status, seq;id_hash",
		"review_accounts|member_id:0|account:0|key:member_id|ix:",
		"site_config|name:0|value:0|updated_at:1|position:1|key:name|ix:",
		"subscription_applications|application_no:0|issue_id:0|member_id:0|symbol:0|name:0|lots:1|shares:1|price:0|amount:0|fee:0|postage:0|refunded:0|state:0|allotted:1|applied_at:1|updated_at:1|position:1|key:application_no|ix:member_id, applied_at;issue_id, application_no",
		"subscription_issues|issue_id:0|symbol:0|name:0|market:0|currency:0|price:0|reference_price:0|lots:1|unit_lots:1|lot_shares:1|fee:0|postage:0|opens_at:1|closes_at:1|draw_date:0|deduction_date:0|refund_date:0|listing_date:0|pe:0|industry_pe:0|commitment:0|algorithm:0|seed:0|winners:0|drawn:1|listed_at:1|position:1|key:issue_id|ix:opens_at",
		"trade_notices|id:0|member_id:0|type:0|ratio:0|deadline:0|reason:0|positions:0|created_at:1|seq:1|key:id|ix:member_id, seq",
		"trade_orders|order_no:0|member_id:0|position_id:0|intent:0|symbol:0|name:0|kind:0|side:0|direction:0|type:0|shares:1|odd_lot:1|price:0|leverage:0|day_trade:1|placed_by:0|trading_day:0|status:0|filled:1|amount:0|commission:0|tax:0|reason:0|created_at:1|updated_at:1|seq:1|position:1|condition:0|session:0|time_in_force:0|origin:0|origin_name:0|key:order_no|ix:member_id, seq;member_id, status, seq;status",
		"trade_positions|id:0|member_id:0|symbol:0|name:0|kind:0|direction:0|leverage:0|day_trade:1|open_day:0|status:0|shares:1|closing:1|bought:1|entry_amount:0|exit_shares:1|exit_amount:0|fees:0|tax:0|loan:0|margin:0|basis:0|profit:0|open_working:1|close_order:0|opened_at:1|closed_at:1|created_at:1|updated_at:1|seq:1|position:1|key:id|ix:member_id, status, seq;member_id, seq",
		"wallet_cash_months|member_id:0|asset:0|month:0|amount:0|position:1|key:member_id,asset,month|ix:",
		"wallet_holds|hold_id:0|member_id:0|ref:0|asset:0|reason:0|amount:0|since:1|position:1|key:hold_id|ix:member_id, since",
		"watchlists|member_id:0|book:0|position:1|key:member_id|ix:",
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
