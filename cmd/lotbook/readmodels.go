package main

// The capabilities' read models in this binary. Each package registers its projector from init,
// so importing it is what the runner, `lotbook rebuild` and `lotbook audit` see; a new
// capability adds its line here.
import (
	_ "github.com/lotbook/lotbook/projections/alerts"
	_ "github.com/lotbook/lotbook/projections/auction"
	_ "github.com/lotbook/lotbook/projections/block"
	_ "github.com/lotbook/lotbook/projections/chat"
	_ "github.com/lotbook/lotbook/projections/chipgrab"
	_ "github.com/lotbook/lotbook/projections/config"
	_ "github.com/lotbook/lotbook/projections/console"
	_ "github.com/lotbook/lotbook/projections/copytrade"
	_ "github.com/lotbook/lotbook/projections/coupons"
	_ "github.com/lotbook/lotbook/projections/credit"
	_ "github.com/lotbook/lotbook/projections/favorites"
	_ "github.com/lotbook/lotbook/projections/funds"
	_ "github.com/lotbook/lotbook/projections/lending"
	_ "github.com/lotbook/lotbook/projections/news"
	_ "github.com/lotbook/lotbook/projections/placement"
	_ "github.com/lotbook/lotbook/projections/reviews"
	_ "github.com/lotbook/lotbook/projections/subscription"
	_ "github.com/lotbook/lotbook/projections/trading"
)
