package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"testing"
)

// crowdAgent serves the site through a proxy to the suite's server, except
// that a run request gets a stream the test paces: RUN_STARTED, then one
// event each time the test asks (a snapshot of a crowd of n services, then
// single-service deltas; or an event of its own), then RUN_FINISHED. It
// also serves the plain page.
type crowdAgent struct {
	url    string
	events chan string // "" for the next of the crowd's, "finish", or an event's JSON
}

// next sends the crowd's next event: the snapshot, then a delta.
func (a *crowdAgent) next() { a.events <- "" }

// event sends an event of the test's own.
func (a *crowdAgent) event(json string) { a.events <- json }

// finish ends the run.
func (a *crowdAgent) finish() { a.events <- "finish" }

func startCrowdAgent(t testing.TB, n int) *crowdAgent {
	upstream, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	a := &crowdAgent{events: make(chan string)}
	done := make(chan struct{})
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(upstream) }}
	mux := http.NewServeMux()
	mux.Handle("/", proxy)
	mux.HandleFunc("GET /peer.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join("peer", "peer.html"))
	})
	mux.HandleFunc("GET /peer/fast-json-patch.min.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join("peer", "node_modules", "fast-json-patch", "dist", "fast-json-patch.min.js"))
	})
	mux.HandleFunc("POST /api/agent-analysis", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(event any) {
			data, ok := event.(string)
			if !ok {
				b, _ := json.Marshal(event)
				data = string(b)
			}
			fmt.Fprintf(w, "data: %s\n\n", data)
			w.(http.Flusher).Flush()
		}
		send(map[string]any{"type": "RUN_STARTED", "threadId": in.ThreadID, "runId": in.RunID})
		for i := 0; ; {
			select {
			case event := <-a.events:
				switch {
				case event == "finish":
					send(map[string]any{"type": "RUN_FINISHED", "threadId": in.ThreadID, "runId": in.RunID})
					return
				case event != "":
					send(event)
				case i == 0:
					send(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": crowd(n)}})
					i++
				default:
					send(map[string]any{"type": "STATE_DELTA", "delta": []map[string]any{crowdDelta(n, i)}})
					i++
				}
			case <-r.Context().Done():
				return
			case <-done:
				return
			}
		}
	})
	server := httptest.NewServer(mux)
	t.Cleanup(server.Close)
	t.Cleanup(func() { close(done) })
	a.url = server.URL
	return a
}

type crowdService struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Series  string  `json:"series"`
	Volume  float64 `json:"volume"`
	Latency float64 `json:"latency"`
}

// crowd is n services spread over the chart; the first holds the largest
// volume and p95, and no delta touches it, so the axes never change.
func crowd(n int) []crowdService {
	out := make([]crowdService, n)
	for i := range out {
		series := "Core"
		if i%2 == 1 {
			series = "Platform"
		}
		out[i] = crowdService{
			ID: fmt.Sprintf("s%d", i), Name: fmt.Sprintf("Service %d", i), Series: series,
			Volume: float64(100 + (i*7919)%1900), Latency: float64(10 + (i*104729)%170),
		}
	}
	out[0].Volume, out[0].Latency = 2000, 190
	return out
}

// crowdDelta changes one service's p95, never the first's.
func crowdDelta(n, i int) map[string]any {
	k := 1 + (i*7919)%(n-1)
	return map[string]any{"op": "replace", "path": fmt.Sprintf("/services/%d/latency", k), "value": 10 + (i*37)%170}
}
