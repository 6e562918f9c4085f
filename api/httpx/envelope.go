package httpx

import (
	"encoding/json"
	"net/http"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/shopspring/decimal"
)

// Envelope is the body of every answer under /api/vue/.
type Envelope struct {
	Status int             `json:"status"`
	Msg    wire.MessageKey `json:"msg"`
	Data   any             `json:"data"`
}

// EncodeEnvelope renders a body once, so idempotent replays can store exactly what was sent.
func EncodeEnvelope(status int, key wire.MessageKey, data any) []byte {
	b, err := json.Marshal(Envelope{Status: status, Msg: key, Data: data})
	if err != nil {
		// Only our own response types are marshalled here; failing is a programming error.
		panic("api: encode envelope: " + err.Error())
	}
	return append(b, '\n')
}

// WriteRaw writes an encoded JSON body, never cached.
func WriteRaw(w http.ResponseWriter, httpStatus int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}

// WriteOK writes a success with message key ok.
func WriteOK(w http.ResponseWriter, data any) {
	WriteOKKey(w, wire.MessageKeyOk, data)
}

// WriteOKKey writes a success with its message key; nil data is an empty object.
func WriteOKKey(w http.ResponseWriter, key wire.MessageKey, data any) {
	if data == nil {
		data = struct{}{}
	}
	WriteRaw(w, http.StatusOK, EncodeEnvelope(1, key, data))
}

// Money renders an amount or a price with two decimals, as the exchange quotes them.
func Money(d decimal.Decimal) string { return d.StringFixed(2) }
