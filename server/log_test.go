package server_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/server"
)

func logLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	var out []map[string]any
	for line := range strings.Lines(buf.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		out = append(out, m)
	}
	return out
}

func TestRequestLog(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		h := server.New(server.Config{NoDelay: true, Logger: slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: level}))})
		h.ServeHTTP(httptest.NewRecorder(), newRunRequest(t.Context(), "/api/agent-analysis", runBody("t1", "r1", "normal")))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/app.js", nil))

		var requests, events, assets int
		for _, l := range logLines(t, &buf) {
			switch {
			case l["msg"] == "event":
				events++
			case l["path"] == "/app.js":
				assets++
			case l["path"] == "/api/agent-analysis":
				requests++
				for k, want := range map[string]any{"method": "POST", "status": float64(200), "scenario": "normal",
					"threadId": "t1", "runId": "r1", "events": float64(6), "end": "completed"} {
					if l[k] != want {
						t.Errorf("%s = %v, want %v", k, l[k], want)
					}
				}
				if _, ok := l["duration"]; !ok {
					t.Error("no duration")
				}
			}
		}
		debug := level == slog.LevelDebug
		if requests != 1 || (events == 6) != debug || (assets == 1) != debug {
			t.Errorf("level %v: %d request lines, %d event lines, %d asset lines", level, requests, events, assets)
		}
	}
}
