package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/server"
)

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
