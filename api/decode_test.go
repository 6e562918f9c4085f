package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/lotbook/lotbook/api/httpx"
	"github.com/lotbook/lotbook/api/wire"
)

func TestDecodeStrict(t *testing.T) {
	sh := contract.shape("DepositRequest")
	good := `{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888"}`
	cases := []struct {
		name, body string
		ok         bool
	}{
		{"valid", good, true},
		{"valid with spaces", " \n" + good + "\n ", true},
		{"amount as number", `{"channelId":"bank","amount":1000,"proofFileId":"f","channelPassword":"8888"}`, false},
		{"amount as float", `{"channelId":"bank","amount":1e3,"proofFileId":"f","channelPassword":"8888"}`, false},
		{"amount null", `{"channelId":"bank","amount":null,"proofFileId":"f","channelPassword":"8888"}`, false},
		{"amount missing", `{"channelId":"bank","proofFileId":"f","channelPassword":"8888"}`, false},
		{"unknown field", `{"channelId":"bank","amount":"1","proofFileId":"f","channelPassword":"8888","x":1}`, false},
		{"wrong case", `{"ChannelId":"bank","amount":"1","proofFileId":"f","channelPassword":"8888"}`, false},
		{"two values", good + good, false},
		{"trailing garbage", good + "x", false},
		{"array", `[` + good + `]`, false},
		{"string", `"x"`, false},
		{"null", `null`, false},
		{"empty", ``, false},
		{"truncated", good[:20], false},
		{"channel as object", `{"channelId":{},"amount":"1","proofFileId":"f","channelPassword":"8888"}`, false},
		{"password as bool", `{"channelId":"bank","amount":"1","proofFileId":"f","channelPassword":true}`, false},
		// A name given twice is refused, whichever value would have won.
		{"amount twice", `{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","amount":"1"}`, false},
		{"amount twice, same value", `{"channelId":"bank","amount":"1000","amount":"1000","proofFileId":"f","channelPassword":"8888"}`, false},
		{"amount twice, escaped", `{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","\u0061mount":"1"}`, false},
		{"password twice", `{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","channelPassword":"1"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var req wire.DepositRequest
			err := decodeStrict([]byte(tc.body), sh, &req)
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if req.Amount != "1000" || req.ChannelId != "bank" {
					t.Fatalf("decoded %+v", req)
				}
				return
			}
			var ae *httpx.Error
			if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Key != wire.MessageKeyInvalidRequest {
				t.Fatalf("got %v, want 400 invalid_request", err)
			}
		})
	}
}

func TestDecodeOptionalFieldMayBeAbsent(t *testing.T) {
	var req wire.ApproveRequest
	if err := decodeStrict([]byte(`{}`), contract.shape("ApproveRequest"), &req); err != nil {
		t.Fatal(err)
	}
	if err := decodeStrict([]byte(`{"remark":"checked"}`), contract.shape("ApproveRequest"), &req); err != nil || req.Remark == nil || *req.Remark != "checked" {
		t.Fatalf("remark %v, %v", req.Remark, err)
	}
}

func TestNoDuplicateKeys(t *testing.T) {
	cases := []struct {
		body string
		ok   bool
	}{
		{`{"a":1,"b":2}`, true},
		{`{"a":{"a":1},"b":[{"a":1},{"a":2}]}`, true}, // one name once per object
		{`{"w":{"open":"09:00","close":"10:00"},"x":[1,[2,{"y":{}}]]}`, true},
		{`[]`, true},
		{`"s"`, true},
		{`{"a":1,"a":1}`, false},
		{`{"a":1,"\u0061":2}`, false}, // the same name spelled with an escape
		{`{"w":{"open":"09:00","open":"10:00"}}`, false},
		{`{"x":[{"y":1},{"y":1,"z":{"q":[{"r":1,"r":2}]}}]}`, false},
		{`{"a":{"b":1},"a":{"c":1}}`, false},
		{`{"a":[1,2],"a":[3]}`, false},
		{`{"a":1,"A":2}`, true}, // names are case-sensitive here; the schema check refuses "A"
	}
	for _, tc := range cases {
		w := nameWalker{body: []byte(tc.body)}
		if err := w.value(); (err == nil) != tc.ok {
			t.Errorf("names of %s: %v, want ok %v", tc.body, err, tc.ok)
		}
	}
}

// FuzzDecodeStrict: any body either decodes into a request whose required fields are all
// present, or is refused with 400 invalid_request; it never panics or answers anything else.
func FuzzDecodeStrict(f *testing.F) {
	for _, s := range []string{
		`{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888"}`,
		`{"channelId":"bank","amount":1000,"proofFileId":"f","channelPassword":"8888"}`,
		`{"amount":"NaN"}`, `{"amount":"1e3"}`, `{}`, `[]`, `null`, `{"a":`, "\x00", `{"channelId":"\ud800"}`,
		`{"channelId":"a","channelId":"b","amount":"1","proofFileId":"f","channelPassword":"1"}`,
		`{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","amount":"1"}`,
		`{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","\u0061mount":"1"}`,
		`{"a":{"b":[{"c":1,"c":2}]}}`,
		strings.Repeat(`{"a":`, 100),
		`{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","\u0063hannelId":"b"}`,
		"{\"channelId\":\"bank\",\"amount\":\"1000\",\"proofFileId\":\"f\",\"channelPassword\":\"8888\",\"a\xff\":1,\"a\xfe\":2}",
		`{"channelId" : "bank" , "amount":"1000","proofFileId":"f","channelPassword":"8888" }`,
		`{"channelId":"bank","amount":"1000","proofFileId":"f","channelPassword":"8888","x":[{},[],{"y":[1,{"y":null}]}]}`,
	} {
		f.Add([]byte(s))
	}
	sh := contract.shape("DepositRequest")
	f.Fuzz(func(t *testing.T, body []byte) {
		var req, before wire.DepositRequest
		err := decodeStrict(body, sh, &req)
		errBefore := decodeStrictBefore(body, sh, &before)
		if (err == nil) != (errBefore == nil) || !reflect.DeepEqual(req, before) {
			t.Fatalf("body %q: %+v, %v; the three-pass decoder: %+v, %v", body, req, err, before, errBefore)
		}
		if err == nil {
			return
		}
		var ae *httpx.Error
		if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Key != wire.MessageKeyInvalidRequest {
			t.Fatalf("body %q: %v", body, err)
		}
	})
}

// decodeStrictBefore is the three-pass decoder decodeStrict replaced (a token walk for duplicate
// names, a decode into a map for the schema's names, the typed decode): FuzzDecodeStrict holds
// the two to the same answers.
func decodeStrictBefore(body []byte, sh requestShape, dst any) error {
	if err := noDuplicateKeysBefore(body); err != nil {
		return httpx.InvalidRequest(err)
	}
	var fields map[string]json.RawMessage
	if err := oneValueBefore(body, &fields, false); err != nil {
		return httpx.InvalidRequest(err)
	}
	if fields == nil {
		return httpx.InvalidRequest(errors.New("body is not an object"))
	}
	for k := range fields {
		if !sh.props[k] {
			return httpx.InvalidRequest(fmt.Errorf("%s: unknown field %q", sh.name, k))
		}
	}
	for _, k := range sh.required {
		v, ok := fields[k]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return httpx.InvalidRequest(fmt.Errorf("%s: missing field %q", sh.name, k))
		}
	}
	if err := oneValueBefore(body, dst, true); err != nil {
		return httpx.InvalidRequest(err)
	}
	return nil
}

func oneValueBefore(body []byte, dst any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}

// noDuplicateKeys walks body's tokens and refuses a name given twice in one object, at any depth.
// encoding/json silently keeps the last one, so a proxy, a log and this server could each read a
// different request from the same bytes.
func noDuplicateKeysBefore(body []byte) error {
	type scope struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []*scope
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("decode: %w", err)
		}
		var top *scope
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && top.keys != nil {
			if top.wantKey {
				k := tok.(string) // the decoder yields only strings where a name belongs
				if top.keys[k] {
					return fmt.Errorf("field %q given twice", k)
				}
				top.keys[k], top.wantKey = true, false
				continue
			}
			top.wantKey = true // this token starts the value; the next one at this depth is a name
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &scope{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &scope{})
		}
	}
}
