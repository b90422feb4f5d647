package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/agent-analysis/agent-analysis/server/library"
)

// readAll reads what io.ReadAll reads, whatever length the body
// announces and however it arrives.
func TestReadAllIsIoReadAll(t *testing.T) {
	for _, body := range []string{"", "{}", strings.Repeat("x", 511), strings.Repeat("x", 512), strings.Repeat("y", 5000)} {
		for _, size := range []int64{-1, 0, int64(len(body)), int64(len(body)) + 7} {
			for name, r := range map[string]func() io.Reader{
				"whole":    func() io.Reader { return strings.NewReader(body) },
				"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) },
				"data+EOF": func() io.Reader { return iotest.DataErrReader(strings.NewReader(body)) },
			} {
				want, _ := io.ReadAll(r())
				// Into nothing, and into a kept buffer still holding a body.
				for _, into := range [][]byte{nil, bytes.Repeat([]byte("z"), 600)} {
					got, err := readAll(r(), size, into)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%d bytes announced as %d, %s, into %d bytes: %d bytes, %v", len(body), size, name, len(into), len(got), err)
					}
				}
			}
		}
	}
	if _, err := readAll(iotest.ErrReader(io.ErrUnexpectedEOF), 10, nil); err != io.ErrUnexpectedEOF {
		t.Errorf("error %v", err)
	}
}

// A body's buffer goes back to be read into again once its input is read:
// nothing decodeRunInput returned for one request may stand in it, or the
// next request's body would change it.
func TestInputOutlivesItsBuffer(t *testing.T) {
	scripts := library.BuiltIn()
	read := func(thread, run, warn string) runInput {
		body := `{"threadId":"` + thread + `","runId":"` + run + `","protocolVersion":"1.0","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}` + warn + `}`
		r := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		req, p := decodeRunInput(w, http.NewResponseController(w), r, time.Second, scripts)
		if p != nil {
			t.Fatalf("refused: %+v", p)
		}
		return req
	}
	first := read("thread-aaaaaaaa", "run-aaaaaaaa", `,"extraMember":"aaaaaaaa"`)
	want := runInput{ThreadID: strings.Clone(first.ThreadID), RunID: strings.Clone(first.RunID),
		Scenario: strings.Clone(first.Scenario), Version: strings.Clone(first.Version)}
	for _, w := range first.Warnings {
		want.Warnings = append(want.Warnings, strings.Clone(w))
	}
	for range 100 { // the pool may hand out another buffer first
		read("thread-bbbbbbbb", "run-bbbbbbbb", `,"extraMember":"bbbbbbbb"`)
	}
	if !reflect.DeepEqual(first, want) || len(first.Warnings) != 1 {
		t.Errorf("the first request's input changed under later ones:\n%+v\nnot\n%+v", first, want)
	}
}

// Every buffer readAll makes for a body of up to maxPresized bytes goes
// back to be read into again, whether the body announced its length or
// not; a larger one is read whole, from no more room than that.
func TestBodyBuffersAreKept(t *testing.T) {
	for _, n := range []int{0, 511, 512, 513, maxPresized - 1, maxPresized, maxPresized + 1} {
		for _, size := range []int64{-1, int64(n)} {
			for name, r := range map[string]func() io.Reader{
				"whole":    func() io.Reader { return bytes.NewReader(make([]byte, n)) },
				"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(make([]byte, n))) },
			} {
				b, err := readAll(r(), size, nil)
				if err != nil || len(b) != n || cap(b) > maxKept {
					t.Errorf("%d bytes announced as %d, %s: %d bytes in a buffer of %d, %v; kept up to %d", n, size, name, len(b), cap(b), err, maxKept)
				}
			}
		}
	}
	stalled := iotest.TimeoutReader(bytes.NewReader(make([]byte, 100)))
	if b, err := readAll(stalled, maxBody, nil); len(b) != 100 || cap(b) > maxKept || err == nil {
		t.Errorf("%d of %d bytes in a buffer of %d (%v): made room for more than arrived", len(b), maxBody, cap(b), err)
	}
}

// Inputs of more than maxPresized bytes are read a few at once: one more
// is turned away with 503 and Retry-After, announced or not, while a
// small input is read as ever; each large one gives its place back.
func TestLargeInputsAreReadAFewAtOnce(t *testing.T) {
	h := New(Config{NoDelay: true})
	large := fmt.Sprintf(`{"threadId":"t","runId":"r","state":{"note":%q},"messages":[]}`, strings.Repeat("x", maxPresized))
	small := `{"threadId":"t","runId":"r","messages":[]}`
	post := func(body string, announced bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if !announced {
			req.ContentLength = -1
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for range cap(largeReads) {
		largeReads <- struct{}{} // every place taken
	}
	for _, announced := range []bool{true, false} {
		if rec := post(large, announced); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "5" ||
			!strings.Contains(rec.Body.String(), "too-many-large-inputs") {
			t.Errorf("a large input (announced %v) with every place taken: %d %v %s", announced, rec.Code, rec.Header(), rec.Body)
		}
		if rec := post(small, announced); rec.Code != http.StatusOK {
			t.Errorf("a small input (announced %v) with every place taken: %d %s", announced, rec.Code, rec.Body)
		}
	}
	// A large body announced but not yet sent holds no place; one
	// announced past the bound is refused before a byte is read.
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", iotest.ErrReader(io.ErrUnexpectedEOF))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = maxBody + 1
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || rec.Header().Get("Connection") != "close" || len(largeReads) != cap(largeReads) {
		t.Errorf("a body announced past the bound: %d %v", rec.Code, rec.Header())
	}
	for range cap(largeReads) {
		<-largeReads
	}
	for _, announced := range []bool{true, false} {
		if rec := post(large, announced); rec.Code != http.StatusOK || len(largeReads) != 0 {
			t.Errorf("a large input (announced %v): %d, %d places held after", announced, rec.Code, len(largeReads))
		}
	}
}
