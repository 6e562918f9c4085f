package httpx

import (
	"errors"
	"net/http"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
)

// Error is a refusal decided on the HTTP side (decoding, auth, limits); command refusals come
// as *commands.Error and are mapped where the answer is written.
type Error struct {
	Status int
	Key    wire.MessageKey
	Err    error // the cause, logged, never sent
}

func (e *Error) Error() string {
	if e.Err != nil {
		return string(e.Key) + ": " + e.Err.Error()
	}
	return string(e.Key)
}

func (e *Error) Unwrap() error { return e.Err }

// Refuse is a refusal with its HTTP status, message key and (logged only) cause.
func Refuse(status int, key wire.MessageKey, cause error) *Error {
	return &Error{Status: status, Key: key, Err: cause}
}

// InvalidRequest is 400 invalid_request.
func InvalidRequest(cause error) *Error {
	return Refuse(http.StatusBadRequest, wire.MessageKeyInvalidRequest, cause)
}

var (
	ErrUnauthorized = Refuse(http.StatusUnauthorized, wire.MessageKeyUnauthorized, nil)
	ErrForbidden    = Refuse(http.StatusForbidden, wire.MessageKeyForbidden, nil)
	ErrNotFound     = Refuse(http.StatusNotFound, wire.MessageKeyNotFound, nil)
)

// IsNotFound says whether a read model found nothing.
func IsNotFound(err error) bool { return errors.Is(err, projections.ErrNotFound) }
