package pipeline

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/components/metrics"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/prometheus/client_golang/prometheus"
)

// NewRouter is a Watermill router with the middleware every consumer of the log runs under: a
// handler that fails is retried with a growing pause (then its page is nacked and the subscriber
// sends it again, for ever: nothing is skipped), a panic becomes such a failure, and the router's
// handler metrics go to reg (when not nil) as lotbook_<subsystem>_*.
func NewRouter(logger *slog.Logger, reg prometheus.Registerer, subsystem string) (*message.Router, error) {
	wlog := watermill.NewSlogLoggerWithLevelMapping(logger, map[slog.Level]slog.Level{slog.LevelInfo: slog.LevelDebug})
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 15 * time.Second}, wlog)
	if err != nil {
		return nil, fmt.Errorf("%s router: %w", subsystem, err)
	}
	router.AddMiddleware(
		middleware.Retry{MaxRetries: 3, InitialInterval: 50 * time.Millisecond, Multiplier: 2, MaxInterval: time.Second, Logger: wlog}.Middleware,
		middleware.Recoverer,
	)
	if reg != nil {
		metrics.NewPrometheusMetricsBuilder(reg, "lotbook", subsystem).AddPrometheusRouterMetrics(router)
	}
	return router, nil
}
