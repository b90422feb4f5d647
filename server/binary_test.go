package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/server"
)

const protoType = "application/vnd.ag-ui.event+proto"

// postAccepting posts body with an Accept header.
func postAccepting(h http.Handler, body, accept string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		for line := range strings.SplitSeq(accept, "\n") { // a field line each
			req.Header.Add("Accept", line)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// readBinary reads the events of a binary stream, as JSON.
func readBinary(t *testing.T, body []byte) [][]byte {
	t.Helper()
	r := proto.NewReader(bytes.NewReader(body), proto.MaxFrameBytes)
	var out [][]byte
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("reading the binary stream: %v", err)
		}
		out = append(out, bytes.Clone(ev))
	}
}

// sameEvents compares two lists of events as JSON values: the binary
// transport keeps no member order.
func sameEvents(t *testing.T, what string, got, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d events, want %d", what, len(got), len(want))
	}
	for i := range got {
		g, err1 := jsonpatch.Decode(got[i])
		w, err2 := jsonpatch.Decode(want[i])
		if err1 != nil || err2 != nil || !jsonpatch.Equal(g, w) {
			t.Errorf("%s: event %d is\n%s\nover SSE\n%s", what, i+1, got[i], want[i])
		}
	}
}

// Every built-in script and continuation plays in both encodings, from one
// script: the binary stream decodes to the SSE stream's events. A script
// the binary transport cannot carry is sent as SSE when the request
// accepts it too, and refused with 406 when it asks for binary alone.
// Either way the answer varies by Accept.
func TestEveryScriptInBothEncodings(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	cannot := map[string]bool{"unknown-property": true, "unknown-event": true, "malformed-field": true, "unknown-patch-op": true}
	for _, f := range fixtures.All() {
		t.Run(f.Name, func(t *testing.T) {
			body := runBody("thread-1", "run-1", f.Name)
			text := postAccepting(h, body, "text/event-stream")
			bin := postAccepting(h, body, protoType)
			for _, rec := range []*httptest.ResponseRecorder{text, bin} {
				if !strings.Contains(rec.Header().Get("Vary"), "Accept") {
					t.Errorf("Vary %q", rec.Header().Get("Vary"))
				}
			}
			want, err := readEvents(text.Body)
			if err != nil {
				t.Fatal(err)
			}
			if cannot[f.Name] {
				if bin.Code != http.StatusNotAcceptable || !strings.Contains(bin.Body.String(), "binary transport cannot carry") {
					t.Errorf("%d %s", bin.Code, bin.Body)
				}
				either := postAccepting(h, body, protoType+", text/event-stream;q=0.5")
				if either.Code != 200 || either.Header().Get("Content-Type") != "text/event-stream" {
					t.Errorf("a script binary cannot carry, either accepted: %d %s", either.Code, either.Header().Get("Content-Type"))
				}
				return
			}
			if bin.Code != 200 || bin.Header().Get("Content-Type") != protoType {
				t.Fatalf("%d %q: %s", bin.Code, bin.Header().Get("Content-Type"), bin.Body)
			}
			sameEvents(t, f.Name, readBinary(t, bin.Body.Bytes()), want)
			for _, c := range f.Continuations {
				resume := resumeBody("thread-1", "run-2", f.Name, answersJSON(t, c, "thread-1"))
				text, bin := postAccepting(h, resume, ""), postAccepting(h, resume, protoType)
				want, _ := readEvents(text.Body)
				if bin.Code != 200 || bin.Header().Get("Content-Type") != protoType {
					t.Fatalf("%s: %d %s", c.Name, bin.Code, bin.Body)
				}
				sameEvents(t, f.Name+"/"+c.Name, readBinary(t, bin.Body.Bytes()), want)
			}
		})
	}
}

// A request that accepts neither encoding gets 406 problem+json, before
// any stream byte; one that accepts anything gets SSE, the default.
func TestAcceptNegotiation(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	body := runBody("t", "r", "normal")
	for accept, want := range map[string]string{
		"":                                      "text/event-stream",
		"*/*":                                   "text/event-stream",
		"application/json":                      "406",
		"application/*":                         "406",
		"text/event-stream;q=0":                 "406",
		protoType + ";q=0.9, */*;q=0.1":         protoType,
		"text/event-stream, " + protoType:       "text/event-stream",
		protoType + ", text/event-stream":       protoType,
		"text/event-stream;q=0.2, " + protoType: protoType,
		// Field lines of a list are one list (RFC 9110, 5.3).
		"application/json\ntext/event-stream":   "text/event-stream",
		"text/event-stream;q=0.2\n" + protoType: protoType,
	} {
		rec := postAccepting(h, body, accept)
		got := rec.Header().Get("Content-Type")
		if rec.Code == http.StatusNotAcceptable {
			var p server.Problem
			json.Unmarshal(rec.Body.Bytes(), &p)
			if got != "application/problem+json" || p.Type != "urn:agent-analysis:problem:not-acceptable" || !strings.Contains(p.Detail, "allows neither") {
				t.Errorf("Accept %q: %s %+v", accept, got, p)
			}
			got = "406"
		}
		if got != want || !strings.Contains(rec.Header().Get("Vary"), "Accept") {
			t.Errorf("Accept %q: %s (Vary %q), want %s", accept, got, rec.Header().Get("Vary"), want)
		}
	}
}
