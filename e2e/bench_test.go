package e2e

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// timingProbe runs before the page's scripts: it notes when Run becomes
// usable after hydration, and when the first service mark enters the DOM
// (go-app changes the DOM in an animation frame, which then paints it).
const timingProbe = `(() => {
	const runUsable = () => {
		const run = [...document.querySelectorAll('button')].find(b => b.textContent.trim() === 'Run');
		return document.querySelector('[data-ready="true"]') && run && !run.disabled;
	};
	new MutationObserver(() => {
		if (window.__interactive === undefined && runUsable()) window.__interactive = performance.now();
		if (window.__firstMark === undefined && document.querySelector('svg g[data-service-id]'))
			window.__firstMark = performance.timeOrigin + performance.now();
	}).observe(document, {subtree: true, childList: true, attributes: true});
})()`

// BenchmarkBrowser measures, in headless Chromium at 1280x800 with a cold
// cache, the time from navigation to a usable Run button, and from the
// arrival of the snapshot's bytes to its first mark in the page; medians
// of five runs.
func BenchmarkBrowser(b *testing.B) {
	for b.Loop() {
		var interactive, eventToMark []float64
		for range 5 {
			tti, lag := sampleTimings(b)
			interactive = append(interactive, tti)
			eventToMark = append(eventToMark, lag)
		}
		b.ReportMetric(median(interactive), "ms-to-interactive")
		b.ReportMetric(median(eventToMark), "ms-event-to-mark")
	}
}

func sampleTimings(b *testing.B) (interactiveMs, eventToMarkMs float64) {
	p := newPage(b, viewports[0])
	p.onNewDocument(timingProbe)
	p.do(chromedp.Navigate(baseURL + "/agent-analysis"))
	p.waitFor("a usable Run button", `window.__interactive !== undefined`, 20*time.Second)
	interactiveMs = eval[float64](p, `window.__interactive`)

	// The stream's chunks as the network saw them, in wall-clock time.
	var mu sync.Mutex
	var stream network.RequestID
	var sentAt, sentWall float64
	var chunks []float64
	requests := chromedp.Events(p.ctx, network.RequestWillBeSent)
	received := chromedp.Events(p.ctx, network.DataReceived)
	go func() {
		for ev, err := range requests {
			if err != nil {
				return
			}
			if strings.HasSuffix(ev.Request.URL, "/api/agent-analysis") {
				mu.Lock()
				stream, sentAt, sentWall = ev.RequestID, ev.Timestamp.Float64(), ev.WallTime.Float64()
				mu.Unlock()
			}
		}
	}()
	go func() {
		for ev, err := range received {
			if err != nil {
				return
			}
			mu.Lock()
			if ev.RequestID == stream {
				chunks = append(chunks, ev.Timestamp.Float64())
			}
			mu.Unlock()
		}
	}()

	p.click("Run")
	p.waitFor("the first mark", `window.__firstMark !== undefined`, load)
	markWall := eval[float64](p, `window.__firstMark`)
	p.waitStatus("Completed", load)

	mu.Lock()
	defer mu.Unlock()
	// The snapshot's chunk is the last to arrive before the mark appeared.
	best := -1.0
	for _, at := range chunks {
		wall := (sentWall + at - sentAt) * 1000
		if wall <= markWall {
			best = wall
		}
	}
	if best < 0 {
		b.Fatalf("no stream chunk before the mark (%d chunks)", len(chunks))
	}
	b.Logf("interactive %.0f ms; %d chunks; event to mark %.1f ms", interactiveMs, len(chunks), markWall-best)
	return interactiveMs, markWall - best
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
