package commands

// Message keys of trading (the spec's trading catalogue) and of the withdrawable rule.
const (
	KeyTradeBanned              = "trade_banned"
	KeySymbolRequired           = "symbol_required"
	KeySymbolNotFound           = "symbol_not_found"
	KeyQuantityRequired         = "quantity_required"
	KeyQuantityInvalid          = "quantity_invalid"
	KeyPriceRequired            = "price_required"
	KeyPriceInvalid             = "price_invalid"
	KeyPriceOutOfBand           = "price_out_of_band"
	KeyPriceNotOnTick           = "price_not_on_tick"
	KeyPriceNotObtained         = "price_not_obtained"
	KeyLeverageInvalid          = "leverage_invalid"
	KeyOddLotCashOnly           = "odd_lot_cash_only"
	KeyDayTradeBoardLotOnly     = "day_trade_board_lot_only"
	KeyNotTradingTime           = "not_trading_time"
	KeyOrderCancelled           = "order_cancelled"
	KeyPositionNotFound         = "position_not_found"
	KeyPositionNotHolding       = "position_not_holding"
	KeyCloseQuantityInvalid     = "close_quantity_invalid"
	KeyCloseSubmitted           = "close_submitted"
	KeyPositionLocked           = "position_locked"
	KeySaleNotAllowedYet        = "sale_not_allowed_yet"
	KeyInsufficientWithdrawable = "insufficient_withdrawable"
)
