package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// crowdSizes are the service counts the rendering benchmark streams.
var crowdSizes = []int{4, 100, 1000, 10000}

// crowdDeltas is how many single-service deltas follow the snapshot.
const crowdDeltas = 20

// longTaskProbe keeps the page's long tasks (50 ms and over), as Chromium
// reports them.
const longTaskProbe = `(() => {
	window.__longTasks = [];
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) window.__longTasks.push({start: e.startTime, duration: e.duration});
	}).observe({type: 'longtask', buffered: true});
})()`

// BenchmarkRendering streams a snapshot of N services, then 20 deltas that
// each change one service's p95, to this demo's page and to a plain
// JavaScript page doing what a hurried developer would (peer/peer.html),
// one page after the other at 1280x800. Each event goes out only once the
// page has drawn the last one (the page itself waits for that, frame by
// frame, so the waiting costs next to nothing), so the busy time between
// two events is what that event cost the main thread: Chromium's
// TaskDuration, in thread time. It reports, per N and page, the median of
// three runs of: busy ms per delta, the longest task while the deltas
// arrived, busy ms for the snapshot until drawn, and the longest task
// meanwhile.
func BenchmarkRendering(b *testing.B) {
	for b.Loop() {
		for _, n := range crowdSizes {
			for _, kind := range []string{"ours", "plain"} {
				var runs []crowdResult
				for range 3 {
					runs = append(runs, measureCrowd(b, kind, n))
				}
				r := medianResult(runs)
				b.ReportMetric(r.perDelta, fmt.Sprintf("%s-delta-ms/n=%d", kind, n))
				b.ReportMetric(r.longest, fmt.Sprintf("%s-longest-ms/n=%d", kind, n))
				b.ReportMetric(r.snapshot, fmt.Sprintf("%s-snapshot-ms/n=%d", kind, n))
				b.ReportMetric(r.snapshotLongest, fmt.Sprintf("%s-snapshot-longest-ms/n=%d", kind, n))
				b.Logf("%s n=%d: %.1f ms a delta, longest task %.0f ms; snapshot %.0f ms, longest task %.0f ms",
					kind, n, r.perDelta, r.longest, r.snapshot, r.snapshotLongest)
			}
		}
	}
}

type crowdResult struct{ perDelta, longest, snapshot, snapshotLongest float64 }

func medianResult(runs []crowdResult) crowdResult {
	pick := func(f func(crowdResult) float64) float64 {
		var v []float64
		for _, r := range runs {
			v = append(v, f(r))
		}
		return median(v)
	}
	return crowdResult{
		perDelta:        pick(func(r crowdResult) float64 { return r.perDelta }),
		longest:         pick(func(r crowdResult) float64 { return r.longest }),
		snapshot:        pick(func(r crowdResult) float64 { return r.snapshot }),
		snapshotLongest: pick(func(r crowdResult) float64 { return r.snapshotLongest }),
	}
}

func measureCrowd(b *testing.B, kind string, n int) crowdResult {
	agent := startCrowdAgent(b, n)
	p := newPage(b, viewports[0])
	p.base = agent.url
	p.onNewDocument(longTaskProbe)
	// Thread time: what the main thread spent, however busy the machine.
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks})
		return err
	}))
	accepted := `document.querySelector('.accepted').textContent`
	// A crowd is drawn over several frames: an update is shown once the
	// chart has drawn every chunk.
	drawn := `document.querySelector('svg.chart').dataset.drawing === 'false'`
	if kind == "plain" {
		p.do(chromedp.Navigate(p.base + "/peer.html"))
		p.waitFor("the plain page", `typeof jsonpatch === 'object'`, load)
		accepted, drawn = `document.getElementById('accepted').textContent`, `true`
		p.input(chromedp.Click("#run"))
	} else {
		p.open("/agent-analysis")
		p.click("Run")
	}
	shown := func(k int) {
		evalAwait[bool](p, fmt.Sprintf(`new Promise(shown => {
			const check = () => %s === 'Accepted updates: %d' && %s ? shown(true) : requestAnimationFrame(check);
			check();
		})`, accepted, k, drawn))
		p.do(settled)
	}
	longestSince := func(from float64) float64 {
		return eval[float64](p, fmt.Sprintf(`Math.max(0, ...window.__longTasks.filter(t => t.start >= %f).map(t => t.duration))`, from))
	}

	snapshotFrom := eval[float64](p, `performance.now()`)
	before := taskSeconds(p)
	agent.next <- true // the snapshot
	shown(1)
	afterSnapshot := taskSeconds(p)
	deltasFrom := eval[float64](p, `performance.now()`)
	snapshotLongest := longestSince(snapshotFrom)
	for k := range crowdDeltas {
		agent.next <- true
		shown(k + 2)
	}
	afterDeltas := taskSeconds(p)
	longest := longestSince(deltasFrom)
	agent.next <- false // RUN_FINISHED
	return crowdResult{
		perDelta:        (afterDeltas - afterSnapshot) * 1000 / crowdDeltas,
		longest:         longest,
		snapshot:        (afterSnapshot - before) * 1000,
		snapshotLongest: snapshotLongest,
	}
}

// taskSeconds is the main thread's busy time so far, as Chromium counts it.
func taskSeconds(p *page) float64 {
	p.t.Helper()
	var metrics performance.GetMetricsResult
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		metrics, err = cdp.Call(ctx, t, performance.GetMetrics, cdp.Empty{})
		return err
	}))
	for _, m := range metrics.Metrics {
		if m.Name == "TaskDuration" {
			return m.Value
		}
	}
	p.t.Fatal("Chromium reports no TaskDuration")
	return 0
}

// crowdAgent serves the site through a proxy to the suite's server, except
// that a run request gets a stream of a crowd of n services, one event
// each time the test sends on next (true: the next state event; false:
// RUN_FINISHED). It also serves the plain page.
type crowdAgent struct {
	url  string
	next chan bool
}

func startCrowdAgent(t testing.TB, n int) *crowdAgent {
	upstream, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	a := &crowdAgent{next: make(chan bool)}
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
			data, _ := json.Marshal(event)
			fmt.Fprintf(w, "data: %s\n\n", data)
			w.(http.Flusher).Flush()
		}
		send(map[string]any{"type": "RUN_STARTED", "threadId": in.ThreadID, "runId": in.RunID})
		for i := 0; ; i++ {
			select {
			case more := <-a.next:
				switch {
				case !more:
					send(map[string]any{"type": "RUN_FINISHED", "threadId": in.ThreadID, "runId": in.RunID})
					return
				case i == 0:
					send(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": crowd(n)}})
				default:
					send(map[string]any{"type": "STATE_DELTA", "delta": []map[string]any{crowdDelta(n, i)}})
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
	if _, err := os.Stat(filepath.Join("peer", "node_modules", "fast-json-patch")); err != nil {
		t.Fatal("the plain page needs fast-json-patch: make bench installs it (cd e2e/peer && npm ci)")
	}
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
