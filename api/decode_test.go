package api

import (
	"errors"
	"net/http"
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
		if err := noDuplicateKeys([]byte(tc.body)); (err == nil) != tc.ok {
			t.Errorf("noDuplicateKeys(%s) = %v, want ok %v", tc.body, err, tc.ok)
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
	} {
		f.Add([]byte(s))
	}
	sh := contract.shape("DepositRequest")
	f.Fuzz(func(t *testing.T, body []byte) {
		var req wire.DepositRequest
		err := decodeStrict(body, sh, &req)
		if err == nil {
			return
		}
		var ae *httpx.Error
		if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Key != wire.MessageKeyInvalidRequest {
			t.Fatalf("body %q: %v", body, err)
		}
	})
}
