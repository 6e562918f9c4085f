package httpx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/lotbook/lotbook/api/wire"
	"github.com/lotbook/lotbook/projections"
)

// MaxJSONBody bounds every JSON request body; the largest legitimate one is far below it.
const MaxJSONBody = 64 << 10

// ReadBody reads a JSON request body up to MaxJSONBody.
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxJSONBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, InvalidRequest(fmt.Errorf("body over %d bytes", MaxJSONBody))
		}
		return nil, InvalidRequest(fmt.Errorf("read body: %w", err))
	}
	return b, nil
}

// QueryCount parses a count from a query string in the grammar of typed numbers: ASCII digits only
// (Atoi alone takes a sign). A value past int is strconv.ErrRange.
func QueryCount(v string) (int, error) {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, fmt.Errorf("%q is not a count", v)
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	return n, nil
}

// Paging reads page (from 1) and size (1..100, default 20), plain digits; anything else is
// invalid_request. A page deeper than the lists read (projections.MaxPage), even one past
// int64, is page_out_of_range: no query runs with an offset that overflowed.
func Paging(q url.Values) (page, size int, err error) {
	page, size = 1, 20
	if v := q.Get("size"); v != "" {
		if size, err = QueryCount(v); err != nil || size < 1 || size > 100 {
			return 0, 0, InvalidRequest(fmt.Errorf("size %q", v))
		}
	}
	if v := q.Get("page"); v != "" {
		page, err = QueryCount(v)
		if errors.Is(err, strconv.ErrRange) || err == nil && page > projections.MaxPage(size) {
			return 0, 0, Refuse(http.StatusBadRequest, wire.MessageKeyPageOutOfRange, fmt.Errorf("page %q of %d rows", v, size))
		}
		if err != nil || page < 1 {
			return 0, 0, InvalidRequest(fmt.Errorf("page %q", v))
		}
	}
	return page, size, nil
}

// QueueQuery reads an ops review queue's query: the status (def when absent, refused unless
// valid) and then the page.
func QueueQuery(c *Call, def string, valid func(string) bool) (status string, page, size int, err error) {
	q := c.R.URL.Query()
	status = q.Get("status")
	if status == "" {
		status = def
	}
	if !valid(status) {
		return "", 0, 0, InvalidRequest(fmt.Errorf("status %q", status))
	}
	page, size, err = Paging(q)
	return status, page, size, err
}

// Found is the record the path variable name names, as byID reads it, or 404 not_found.
func Found[T any](c *Call, rd *projections.Reader, name string, byID func(ctx context.Context, rd *projections.Reader, id string) (T, bool, error)) (T, error) {
	id := c.Var(name)
	x, ok, err := byID(c.Ctx(), rd, id)
	if err != nil {
		return x, err
	}
	if !ok {
		return x, Refuse(http.StatusNotFound, wire.MessageKeyNotFound, fmt.Errorf("%s %q", name, id))
	}
	return x, nil
}

// Deref is an optional field's value, its zero value when absent.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
