package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/commands"
	"github.com/lotbook/lotbook/projections"
)

// errorAnswer turns any error into the HTTP status and message key the client sees. Unknown
// errors are system_busy (500), a passed request deadline 503 system_busy; their text never reaches the client.
func errorAnswer(err error) (int, wire.MessageKey) {
	var ae *httpx.Error
	if errors.As(err, &ae) {
		return ae.Status, ae.Key
	}
	if st, key, ok := commandErrorAnswer(err); ok {
		return st, key
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// The request's deadline (Config.RequestTimeout) passed in the database: it is busy or
		// unreachable, and the client may retry with the same key.
		return http.StatusServiceUnavailable, wire.MessageKeySystemBusy
	}
	return http.StatusInternalServerError, wire.MessageKeySystemBusy
}

func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	st, key := errorAnswer(err)
	if st >= 500 {
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	httpx.WriteRaw(w, st, httpx.EncodeEnvelope(0, key, nil))
}

// commandErrorAnswer maps refusals of the write side and misses of the read side.
func commandErrorAnswer(err error) (int, wire.MessageKey, bool) {
	var ce *commands.Error
	if errors.As(err, &ce) {
		return ce.Kind.HTTPStatus(), wire.MessageKey(ce.Key), true
	}
	if errors.Is(err, projections.ErrNotFound) {
		return http.StatusNotFound, wire.MessageKeyNotFound, true
	}
	return 0, "", false
}
