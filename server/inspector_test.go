package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/server"
)

// A web page the developer visits cannot hand the inspector runs: a
// browser's POST from another origin is refused; the inspector's own page,
// and a client that is no browser (curl), are not.
func TestTheInspectorTakesFilesOnlyFromItsOwnPage(t *testing.T) {
	opened := 0
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { opened++ })
	h := server.NewInspector(server.InspectorConfig{API: api, WebDir: t.TempDir(), Port: "8091"})
	for _, c := range []struct {
		origin, site string
		status       int
	}{
		{"https://evil.example", "cross-site", 403},
		{"https://evil.example", "", 403},
		{"http://127.0.0.1:8092", "same-site", 403},
		{"", "cross-site", 403},
		{"http://127.0.0.1:8091", "same-origin", 200},
		{"", "", 200},
	} {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8091/api/open?name=x.sse", strings.NewReader("data: {}\n\n"))
		req.Header.Set("Content-Type", "text/plain")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.site != "" {
			req.Header.Set("Sec-Fetch-Site", c.site)
		}
		w := httptest.NewRecorder()
		before := opened
		h.ServeHTTP(w, req)
		if w.Code != c.status || (opened > before) != (c.status == 200) {
			t.Errorf("Origin %q, Sec-Fetch-Site %q: %d %q, reached the API: %v", c.origin, c.site, w.Code, w.Body, opened > before)
		}
	}
}

// The inspector answers only a Host that reaches it without DNS: a web
// page that rebinds its own name to this machine is refused.
func TestTheInspectorAnswersOnlyItsOwnAddress(t *testing.T) {
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"127.0.0.1:8091", true},
		{"localhost:8091", true},
		{"LocalHost:8091", true},
		{"[::1]:8091", true},
		{"192.168.1.20:8091", true}, // told to listen beyond loopback
		{"127.0.0.1:8092", false},
		{"127.0.0.1", false},
		{"attacker.example:8091", false},
		{"localhost.attacker.example:8091", false},
		{"127.0.0.1.nip.io:8091", false},
		{"", false},
	} {
		if got := server.AllowedHost(c.host, "8091"); got != c.ok {
			t.Errorf("AllowedHost(%q) = %v, want %v", c.host, got, c.ok)
		}
	}

	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"runs":[]}`) })
	h := server.NewInspector(server.InspectorConfig{API: api, WebDir: t.TempDir(), Port: "8091"})
	for _, c := range []struct {
		method, host, path string
		status             int
		body               string
	}{
		{"GET", "127.0.0.1:8091", "/api/runs", 200, `{"runs":[]}`},
		{"GET", "rebound.example:8091", "/api/runs", 421, "answers only its own address"},
		{"GET", "127.0.0.1:8091", "/", 503, "make wasm"}, // no inspector.wasm in this web folder
		{"GET", "127.0.0.1:8091", "/agent-analysis", 404, ""},
		{"OPTIONS", "127.0.0.1:8091", "/api/runs", 200, ""},
	} {
		req := httptest.NewRequest(c.method, "http://"+c.host+c.path, nil)
		req.Host = c.host
		req.Header.Set("Origin", "http://rebound.example:8091")
		req.Header.Set("Access-Control-Request-Method", "GET")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != c.status || !strings.Contains(w.Body.String(), c.body) {
			t.Errorf("%s %s (Host %s): %d %q, want %d with %q", c.method, c.path, c.host, w.Code, w.Body, c.status, c.body)
		}
		for name := range w.Header() {
			if strings.HasPrefix(name, "Access-Control-") {
				t.Errorf("%s %s: a CORS header, %s", c.method, c.path, name)
			}
		}
		if w.Header().Get("Content-Security-Policy") == "" && w.Code != 421 {
			t.Errorf("%s %s: no Content-Security-Policy", c.method, c.path)
		}
	}
}
