package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/lotbook/lotbook/api/wire"
)

// envelope is the body of every answer under /api/vue/.
type envelope struct {
	Status int             `json:"status"`
	Msg    wire.MessageKey `json:"msg"`
	Data   any             `json:"data"`
}

// apiError is a refusal decided in this package (decoding, auth, limits); command refusals come
// as *commands.Error and are mapped by writeError.
type apiError struct {
	status int
	key    wire.MessageKey
	err    error // the cause, logged, never sent
}

func (e *apiError) Error() string {
	if e.err != nil {
		return string(e.key) + ": " + e.err.Error()
	}
	return string(e.key)
}

func (e *apiError) Unwrap() error { return e.err }

func refuse(status int, key wire.MessageKey, cause error) *apiError {
	return &apiError{status: status, key: key, err: cause}
}

func errInvalidRequest(cause error) *apiError {
	return refuse(http.StatusBadRequest, wire.MessageKeyInvalidRequest, cause)
}

var (
	errUnauthorized = refuse(http.StatusUnauthorized, wire.MessageKeyUnauthorized, nil)
	errForbidden    = refuse(http.StatusForbidden, wire.MessageKeyForbidden, nil)
	errNotFound     = refuse(http.StatusNotFound, wire.MessageKeyNotFound, nil)
)

// encodeEnvelope renders a body once, so idempotent replays can store exactly what was sent.
func encodeEnvelope(status int, key wire.MessageKey, data any) []byte {
	b, err := json.Marshal(envelope{Status: status, Msg: key, Data: data})
	if err != nil {
		// Only our own response types are marshalled here; failing is a programming error.
		panic("api: encode envelope: " + err.Error())
	}
	return append(b, '\n')
}

func writeRaw(w http.ResponseWriter, httpStatus int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}

func writeOK(w http.ResponseWriter, data any) {
	writeOKKey(w, wire.MessageKeyOk, data)
}

func writeOKKey(w http.ResponseWriter, key wire.MessageKey, data any) {
	if data == nil {
		data = struct{}{}
	}
	writeRaw(w, http.StatusOK, encodeEnvelope(1, key, data))
}

// errorAnswer turns any error into the HTTP status and message key the client sees. Unknown
// errors are system_busy (500); their text never reaches the client.
func errorAnswer(err error) (int, wire.MessageKey) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.status, ae.key
	}
	if st, key, ok := commandErrorAnswer(err); ok {
		return st, key
	}
	return http.StatusInternalServerError, wire.MessageKeySystemBusy
}

func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	st, key := errorAnswer(err)
	if st >= 500 {
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeRaw(w, st, encodeEnvelope(0, key, nil))
}
