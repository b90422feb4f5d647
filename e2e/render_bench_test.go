package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// crowdSizes are the service counts the rendering benchmark streams.
var crowdSizes = []int{4, 100, 1000, 10000}

// crowdDeltas is how many single-service deltas follow the snapshot.
const crowdDeltas = 20

// crowdRuns is how many times each page is measured at each size; the
// benchmark reports the medians.
const crowdRuns = 5

// deltaGrowthBudget bounds what a single-service delta costs this page at
// 1,000 services against one at 4, measured in the same run (SPEC: within
// 1.3x; the budget leaves room for the spread between runs): a delta costs
// what it changes on the page, not what the page holds.
const deltaGrowthBudget = 1.4

// responsiveness keeps the page's long tasks (50 ms and over), as Chromium
// reports them, and how long each click waited for the page: from the
// input's time to its first listener.
const responsiveness = `(() => {
	window.__longTasks = [];
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) window.__longTasks.push({start: e.startTime, duration: e.duration});
	}).observe({type: 'longtask', buffered: true});
	window.__clickWaits = [];
	addEventListener('click', (e) => window.__clickWaits.push(performance.now() - e.timeStamp), true);
})()`

// BenchmarkRendering streams a snapshot of N services, then 20 deltas that
// each change one service's p95, to this demo's page and to a plain
// JavaScript page doing what a hurried developer would (peer/peer.html),
// one page after the other at 1280x800. Each event goes out only once the
// page has drawn the last one (the page itself waits for that, frame by
// frame, so the waiting costs next to nothing), so the busy time between
// two events is what that event cost the main thread: Chromium's
// TaskDuration, in thread time. It reports, per N and page, the median of
// crowdRuns runs of: busy ms per delta, the longest task while the deltas
// arrived, busy ms for the snapshot until drawn, the longest task
// meanwhile, and the longest a click made meanwhile waited for the page.
// The runs go round every size and page in turn, so that a machine busy
// for a while weighs on all of them alike.
//
// It fails when a delta at 1,000 services costs this page more than
// deltaGrowthBudget times one at 4, and reports the plain page's growth,
// measured in the same run, beside it.
func BenchmarkRendering(b *testing.B) {
	kinds := []string{"ours", "plain"}
	for b.Loop() {
		runs := map[string]map[int][]crowdResult{}
		for _, kind := range kinds {
			runs[kind] = map[int][]crowdResult{}
		}
		for range crowdRuns {
			for _, n := range crowdSizes {
				for _, kind := range kinds {
					runs[kind][n] = append(runs[kind][n], measureCrowd(b, kind, n))
				}
			}
		}
		perDelta := map[string]map[int]float64{}
		for _, kind := range kinds {
			perDelta[kind] = map[int]float64{}
			for _, n := range crowdSizes {
				r := medianResult(runs[kind][n])
				perDelta[kind][n] = r.perDelta
				b.ReportMetric(r.perDelta, fmt.Sprintf("%s-delta-ms/n=%d", kind, n))
				b.ReportMetric(r.longest, fmt.Sprintf("%s-longest-ms/n=%d", kind, n))
				b.ReportMetric(r.snapshot, fmt.Sprintf("%s-snapshot-ms/n=%d", kind, n))
				b.ReportMetric(r.snapshotLongest, fmt.Sprintf("%s-snapshot-longest-ms/n=%d", kind, n))
				b.ReportMetric(r.clickWait, fmt.Sprintf("%s-snapshot-click-wait-ms/n=%d", kind, n))
				b.Logf("%s n=%d: %.1f ms a delta, longest task %.0f ms; snapshot %.0f ms, longest task %.0f ms, a click waited at most %.0f ms",
					kind, n, r.perDelta, r.longest, r.snapshot, r.snapshotLongest, r.clickWait)
			}
		}
		checkDeltaGrowth(b, perDelta)
	}
}

// checkDeltaGrowth holds this page's growth from 4 services to 1,000 to
// deltaGrowthBudget, and reports the plain page's beside it.
func checkDeltaGrowth(b *testing.B, perDelta map[string]map[int]float64) {
	if perDelta["ours"][4] == 0 || perDelta["ours"][1000] == 0 {
		return // not measured at both sizes
	}
	ours, plain := perDelta["ours"][1000]/perDelta["ours"][4], perDelta["plain"][1000]/perDelta["plain"][4]
	b.ReportMetric(ours, "ours-delta-growth-x")
	b.ReportMetric(plain, "plain-delta-growth-x")
	b.Logf("a delta at 1,000 services against one at 4: this page %.2fx (%.1f ms against %.1f; budget %.1fx), the plain page %.2fx (%.1f ms against %.1f)",
		ours, perDelta["ours"][1000], perDelta["ours"][4], deltaGrowthBudget, plain, perDelta["plain"][1000], perDelta["plain"][4])
	if ours > deltaGrowthBudget {
		b.Errorf("a delta at 1,000 services costs this page %.2fx one at 4 (%.1f ms against %.1f), over the budget of %.1fx; the plain page, in the same run: %.2fx",
			ours, perDelta["ours"][1000], perDelta["ours"][4], deltaGrowthBudget, plain)
	}
}

type crowdResult struct{ perDelta, longest, snapshot, snapshotLongest, clickWait float64 }

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
		clickWait:       pick(func(r crowdResult) float64 { return r.clickWait }),
	}
}

func measureCrowd(b *testing.B, kind string, n int) crowdResult {
	if _, err := os.Stat(filepath.Join("peer", "node_modules", "fast-json-patch")); err != nil {
		b.Fatal("the plain page needs fast-json-patch: make bench installs it (cd e2e/peer && npm ci)")
	}
	agent := startCrowdAgent(b, n)
	p := newBarePage(b, viewports[0])
	p.base = agent.url
	p.onNewDocument(responsiveness)
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

	snapshotFrom := eval[float64](p, `window.__clickWaits = [], performance.now()`)
	before := taskSeconds(p)
	agent.next() // the snapshot
	// Meanwhile, a person clicks a blank corner of the page, again as soon
	// as the page has taken the last click, until the snapshot is drawn.
	clicks, clicking, clicked := 0, make(chan struct{}), make(chan error)
	go func() {
		for {
			select {
			case <-clicking:
				clicked <- nil
				return
			default:
			}
			if _, err := chromedp.Run(p.ctx, chromedp.MouseClickXY(2, 2)); err != nil {
				clicked <- err
				return
			}
			clicks++
		}
	}()
	shown(1)
	close(clicking)
	if err := <-clicked; err != nil {
		b.Fatal(err)
	}
	afterSnapshot := taskSeconds(p)
	deltasFrom := eval[float64](p, `performance.now()`)
	snapshotLongest := longestSince(snapshotFrom)
	waits := eval[[]float64](p, `window.__clickWaits`)
	if len(waits) != clicks {
		b.Fatalf("%d clicks, %d seen by the page", clicks, len(waits))
	}
	clickWait := 0.0
	if len(waits) > 0 {
		clickWait = slices.Max(waits)
	}
	for k := range crowdDeltas {
		agent.next()
		shown(k + 2)
	}
	afterDeltas := taskSeconds(p)
	longest := longestSince(deltasFrom)
	agent.finish()
	p.close()
	return crowdResult{
		perDelta:        (afterDeltas - afterSnapshot) * 1000 / crowdDeltas,
		longest:         longest,
		snapshot:        (afterSnapshot - before) * 1000,
		snapshotLongest: snapshotLongest,
		clickWait:       clickWait,
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
