package server_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/server"
)

func TestBadRequestsGetProblemsAndNoStream(t *testing.T) {
	long := strings.Repeat("x", 129)
	tests := []struct {
		name        string
		method      string
		contentType string
		body        string
		status      int
		detail      string // a fragment the detail must contain
		field       string // the member the problem names
	}{
		{"GET", http.MethodGet, "", "", 405, "use POST", ""},
		{"PUT", http.MethodPut, "application/json", runBody("t", "r", "normal"), 405, "use POST", ""},
		{"no content type", http.MethodPost, "", runBody("t", "r", "normal"), 415, "application/json", ""},
		{"text body", http.MethodPost, "text/plain", runBody("t", "r", "normal"), 415, "application/json", ""},
		{"too large", http.MethodPost, "application/json", `{"threadId":"` + strings.Repeat("x", 8<<20) + `"}`, 413, "8 MiB", ""},
		{"malformed JSON", http.MethodPost, "application/json", `{"threadId":`, 400, "malformed JSON: unexpected EOF", ""},
		{"trailing data", http.MethodPost, "application/json", runBody("t", "r", "normal") + "{}", 400, "malformed JSON: data after the value", ""},
		{"a name twice", http.MethodPost, "application/json", `{"threadId":"t","threadId":"u","runId":"r","messages":[]}`, 400, "duplicate", ""},
		{"not an object", http.MethodPost, "application/json", `[1,2]`, 400, "must be a JSON object", ""},
		{"empty object", http.MethodPost, "application/json", `{}`, 400, "threadId: is required", "threadId"},
		{"no messages", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","forwardedProps":{"scenario":"normal"}}`, 400, "messages: is required", "messages"},
		{"case variants are other members", http.MethodPost, "application/json", `{"THREADID":"t","RunId":"r","messages":[],"ForwardedProps":{"scenario":"normal"}}`, 400, "threadId: is required", "threadId"},
		{"threadId not a string", http.MethodPost, "application/json", `{"threadId":1,"runId":"r","messages":[],"forwardedProps":{"scenario":"slow"}}`, 400, "threadId: must be a string, not a number", "threadId"},
		{"protocolVersion not a string", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[],"protocolVersion":1,"forwardedProps":{"scenario":"slow"}}`, 400, "protocolVersion: must be a string", "protocolVersion"},
		{"a newer major line", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[],"protocolVersion":"2.0","forwardedProps":{"scenario":"slow"}}`, 400, "major line this server does not implement", "protocolVersion"},
		{"resume not of the 1.0 shape", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":7,"status":"resolved"}],"forwardedProps":{"scenario":"slow"}}`, 400, "resume/0/interruptId: must be a string", "resume/0/interruptId"},
		{"messages not a list", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":{},"forwardedProps":{"scenario":"slow"}}`, 400, "messages: must be an array", "messages"},
		{"a message of no role", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[{"id":"m","content":"x"}],"forwardedProps":{"scenario":"slow"}}`, 400, "messages/0/role: is required", "messages/0/role"},
		{"state null", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[],"state":null,"forwardedProps":{"scenario":"slow"}}`, 400, "state: must not be null", "state"},
		{"blank threadId", http.MethodPost, "application/json", runBody(" \t", "r", "normal"), 400, "threadId: must not be blank", "threadId"},
		{"blank runId", http.MethodPost, "application/json", runBody("t", "  ", "normal"), 400, "runId: must not be blank", "runId"},
		{"separators and spaces", http.MethodPost, "application/json", runBody("\u001c \u001f", "r", "normal"), 400, "threadId: must not be blank", "threadId"},
		{"long threadId", http.MethodPost, "application/json", runBody(long, "r", "normal"), 400, "threadId: must be at most 128 characters", "threadId"},
		{"long runId", http.MethodPost, "application/json", runBody("t", long, "normal"), 400, "runId: must be at most 128 characters", "runId"},
		{"scenario not a string", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[],"forwardedProps":{"scenario":7}}`, 400, "must be a string", "forwardedProps.scenario"},
		{"forwardedProps not an object", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[],"forwardedProps":"slow"}`, 400, "forwardedProps must be an object", "forwardedProps.scenario"},
		{"unknown scenario", http.MethodPost, "application/json", runBody("t", "r", "fast"), 422, `"fast" is not one of approval, delta-before-snapshot,`, "forwardedProps.scenario"},
		{"blank scenario", http.MethodPost, "application/json", runBody("t", "r", "  "), 422, `"  " is not one of`, "forwardedProps.scenario"},
		{"long scenario", http.MethodPost, "application/json", runBody("t", "r", strings.Repeat("ab", 50)), 422, strings.Repeat("ab", 32) + `…" is not one of`, "forwardedProps.scenario"},
	}
	h := server.New(server.Config{NoDelay: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/api/agent-analysis", strings.NewReader(tt.body))
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)

			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
			if vary := rec.Header().Values("Vary"); !slices.Contains(vary, "Accept") {
				t.Errorf("Vary %q: every answer of the API varies by Accept", vary)
			}
			if tt.status == 405 && rec.Header().Get("Allow") != "POST" {
				t.Errorf("Allow %q, want POST", rec.Header().Get("Allow"))
			}
			if strings.Contains(rec.Body.String(), "data:") {
				t.Errorf("a stream byte was written: %s", rec.Body)
			}
			var p server.Problem
			dec := json.NewDecoder(rec.Body)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil {
				t.Fatalf("body is not a problem: %v", err)
			}
			if p.Status != tt.status || p.Title == "" || !strings.HasPrefix(p.Type, "urn:agent-analysis:problem:") {
				t.Errorf("problem %+v", p)
			}
			if !strings.Contains(p.Detail, tt.detail) || p.Field != tt.field {
				t.Errorf("detail %q field %q, want %q naming %q", p.Detail, p.Field, tt.detail, tt.field)
			}
		})
	}
}

// A body whose length is not announced (chunked) is bounded as it is read:
// within bounds it plays, past them it is refused, as one announced too
// large is without being read.
func TestBodyOfUnannouncedLength(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	for _, tt := range []struct {
		body   string
		status int
	}{
		{runBody("t", "r", "normal"), 200},
		{`{"threadId":"` + strings.Repeat("x", 8<<20) + `"}`, 413},
	} {
		req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(tt.body))
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%d bytes: status %d, want %d; body %.200s", len(tt.body), rec.Code, tt.status, rec.Body)
		}
	}
}

func TestOfficialClientBodyIsAccepted(t *testing.T) {
	// As @ag-ui/client 1.0 sends it: camelCase, protocolVersion, empty lists.
	body := `{"threadId":"thread-1","runId":"run-1","protocolVersion":"1.0","state":{},"messages":[],` +
		`"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Accept", "text/event-stream")
	rec := httptest.NewRecorder()
	server.New(server.Config{NoDelay: true}).ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, type %q: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	got, err := describeStream(rec.Body)
	if err != nil || len(got) != 6 || got[0] != "RUN_STARTED thread-1 run-1 1.0" {
		t.Fatalf("stream %v, %v", got, err)
	}
}

// A resume carries the client's whole state: the demo's largest, 10,000
// services with ids and names of the most characters its rules allow,
// is read as any input is.
func TestTheDemosLargestStateIsAccepted(t *testing.T) {
	var state strings.Builder
	for i := range 10_000 {
		if i > 0 {
			state.WriteByte(',')
		}
		fmt.Fprintf(&state, `{"id":"%064d","name":"%064d","series":"Core","volume":123456,"latency":1234.5}`, i, i)
	}
	body := `{"threadId":"t","runId":"r","state":{"services":[` + state.String() + `]},"messages":[],"forwardedProps":{"scenario":"normal"}}`
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	server.New(server.Config{NoDelay: true}).ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("%d KiB of input: %d %s", len(body)>>10, rec.Code, rec.Body)
	}
}

// A stock client's first request names no scenario: it plays normal.
func TestARequestNamingNoScenarioPlaysNormal(t *testing.T) {
	for _, body := range []string{
		`{"threadId":"t","runId":"r","messages":[]}`,
		`{"threadId":"t","runId":"r","messages":[],"forwardedProps":{}}`,
		`{"threadId":"t","runId":"r","messages":[],"forwardedProps":{"other":1}}`,
	} {
		req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		server.New(server.Config{NoDelay: true}).ServeHTTP(rec, req)
		got, err := describeStream(rec.Body)
		if rec.Code != http.StatusOK || err != nil || len(got) != 6 || got[1] != "STATE_SNAPSHOT api=60 checkout=92 auth=35" {
			t.Errorf("%s: status %d, stream %v, %v", body, rec.Code, got, err)
		}
	}
}

// A consumer may declare a newer minor, an uninterpretable version, or
// none; unknown members are stripped. Each is served, and the log says
// what was noticed (basic/versioning, basic/run-input).
func TestServedInputsAndTheirWarnings(t *testing.T) {
	for body, warning := range map[string]string{
		`{"threadId":"t","runId":"r","messages":[],"forwardedProps":{"scenario":"normal"}}`:                              "",
		`{"threadId":"t","runId":"r","messages":[],"protocolVersion":"1.7","forwardedProps":{"scenario":"normal"}}`:      "newer than this server's 1.1",
		`{"threadId":"t","runId":"r","messages":[],"protocolVersion":"draft","forwardedProps":{"scenario":"normal"}}`:    "cannot interpret protocolVersion",
		`{"threadId":"t","runId":"r","messages":[],"futureMember":{},"forwardedProps":{"scenario":"normal","x":[null]}}`: "removed /futureMember",
		`{"threadId":"t","runId":"r","messages":[],"state":[1],"forwardedProps":{"scenario":"normal"}}`:                  "",
	} {
		var logs lockedBuffer
		h := server.New(server.Config{NoDelay: true, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
		req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", body, rec.Code, rec.Body)
			continue
		}
		if line := logs.snapshot().String(); (warning == "") == strings.Contains(line, "inputWarnings") || !strings.Contains(line, warning) {
			t.Errorf("%s: logged %s, want %q", body, line, warning)
		}
	}
}

func TestHealthzAndPageHeaders(t *testing.T) {
	h := server.New(server.Config{WebDir: webDir(t, "wasm", "", 0)})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != 200 || rec.Body.String() != "ok\n" {
		t.Errorf("healthz: %d %q", rec.Code, rec.Body)
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/agent-analysis" {
		t.Errorf("/ answers %d to %q", rec.Code, rec.Header().Get("Location"))
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/agent-analysis", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	// The first HTML is already the screen: chart, controls and status.
	// (go-app writes an element's attributes in no fixed order.)
	for _, part := range []string{`role="img"`, `role="status"`, `>Run</button>`, `<select [^>]*\bid="scenario"`, "Synthetic data"} {
		if !regexp.MustCompile(part).MatchString(rec.Body.String()) {
			t.Errorf("the prerendered page lacks %s", part)
		}
	}
	csp := rec.Header().Get("Content-Security-Policy")
	for _, directive := range []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'"} {
		if !strings.Contains(csp, directive) {
			t.Errorf("CSP %q lacks %q", csp, directive)
		}
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" || rec.Header().Get("Referrer-Policy") == "" {
		t.Errorf("page headers %v", rec.Header())
	}
}

// JSON the engine will not read is malformed JSON, whatever a laxer
// reader makes of it: text that is not UTF-8, a lone surrogate, a name
// given twice, nesting past the engine's depth; JSON of the wrong shape
// is an invalid input.
func TestMalformedJSONIsOneKindOfProblem(t *testing.T) {
	h := server.New(server.Config{NoDelay: true})
	for _, c := range []struct{ name, body, kind string }{
		{"cut short", `{"threadId":`, "malformed-json"},
		{"not UTF-8", "{\"threadId\":\"t\xff\",\"runId\":\"r\",\"messages\":[]}", "malformed-json"},
		{"a lone surrogate", `{"threadId":"t\ud800","runId":"r","messages":[]}`, "malformed-json"},
		{"a name twice", `{"threadId":"t","threadId":"u","runId":"r","messages":[]}`, "malformed-json"},
		{"nested past the engine's depth", `{"threadId":"t","runId":"r","messages":[],"state":{"a":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}}`, "malformed-json"},
		{"nested past any reader's", `{"threadId":"t","runId":"r","messages":[],"state":{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`, "malformed-json"},
		{"not an object", `[1,2]`, "invalid-input"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var p server.Problem
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || !strings.HasSuffix(p.Type, ":"+c.kind) {
			t.Errorf("%s: %d %s, want %s", c.name, rec.Code, rec.Body, c.kind)
		}
	}
}
