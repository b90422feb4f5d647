package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The inspector's budgets (SPEC's performance contract): an event on the
// screen within 100 ms (p95) of passing the proxy at 50 events a second,
// and a 10,000-event run opened and scrolled to its end with no task over
// 50 ms.
const (
	inspectorLatencyBudgetMs  = 100
	inspectorLongTaskBudgetMs = 50
	latencyEvents             = 250
	bigRunEvents              = 10000
)

// BenchmarkInspector measures both budgets and fails past either:
//
//   - latency: an agent in this process sends events through proxy
//     -inspect at 50 a second, noting when each left (time.Now); the page,
//     showing the run, notes when the timeline's count first took each in
//     (a MutationObserver, performance.timeOrigin + performance.now()). Both
//     are this machine's wall clock, read by two processes; the difference
//     is from the agent's write to the page's DOM, the proxy, the store and
//     the page's read of the new events included. p95 over 250 events.
//   - a 10,000-event script opened with inspect FILE: from the click on the
//     run, every page of events read, the box scrolled to its end in 20
//     steps, and End pressed; the longest task Chromium reports
//     (PerformanceObserver 'longtask', which sees tasks of 50 ms and over).
//
// The first run a page shows after loading pays for things done once per
// page, whatever the run's size, though the page rehearses a sample run as
// it starts (kit/inspect/page/rehearsal.go): the code of following a link
// runs for the first time. So the budget holds three ways: a 31-event run
// and the 10,000-event one, each the first a fresh page shows, and the
// 10,000-event run shown after another. The longest task of loading the
// page is reported, with no budget.
func BenchmarkInspector(b *testing.B) {
	for b.Loop() {
		load, first, firstBig, big := inspectorBigRun(b)
		p95, worstLag := inspectorLatency(b)
		b.ReportMetric(p95, "ms-event-to-screen-p95")
		b.ReportMetric(worstLag, "ms-event-to-screen-max")
		b.ReportMetric(big.longest, "ms-longest-task-10k")
		b.ReportMetric(float64(big.count), "long-tasks-10k")
		b.ReportMetric(first.longest, "ms-longest-task-first-31")
		b.ReportMetric(firstBig.longest, "ms-longest-task-first-10k")
		b.ReportMetric(load.longest, "ms-longest-task-load")
		b.Logf("event to screen at 50/s: p95 %.1f ms, max %.1f ms (budget p95 %d ms); 10,000-event run shown after another, longest task: %.0f ms (%d long tasks); the first run a page shows: %.0f ms (31 events), %.0f ms (10,000 events) (budget: none over %d ms, each); loading the page: %.0f ms",
			p95, worstLag, inspectorLatencyBudgetMs, big.longest, big.count, first.longest, firstBig.longest, inspectorLongTaskBudgetMs, load.longest)
		if p95 > inspectorLatencyBudgetMs {
			b.Errorf("event to screen p95 %.1f ms, over the %d ms budget", p95, inspectorLatencyBudgetMs)
		}
		for _, o := range []struct {
			what string
			f    taskFigures
		}{
			{"the first run a page shows, 31 events", first},
			{"the first run a page shows, 10,000 events", firstBig},
			{"10,000 events shown after another run", big},
		} {
			if o.f.longest > inspectorLongTaskBudgetMs {
				b.Errorf("a task of %.0f ms while opening and scrolling %s, over %d ms", o.f.longest, o.what, inspectorLongTaskBudgetMs)
			}
		}
	}
}

// countProbe notes, in wall-clock ms, when the timeline's count first
// showed each number of events.
const countProbe = `(() => {
	window.__seen = {};
	new MutationObserver(() => {
		const c = document.querySelector('.timeline .count');
		if (!c) return;
		const n = parseInt(c.textContent.slice(1), 10);
		if (!(n in window.__seen)) window.__seen[n] = performance.timeOrigin + performance.now();
	}).observe(document, {subtree: true, childList: true, characterData: true});
})()`

func inspectorLatency(b *testing.B) (p95, max float64) {
	start := make(chan struct{})
	sent := make([]float64, latencyEvents+1)
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		write := func(v map[string]any) {
			data, _ := json.Marshal(v)
			fmt.Fprintf(w, "data: %s\n\n", data)
			rc.Flush()
		}
		write(map[string]any{"type": "RUN_STARTED", "threadId": in.ThreadID, "runId": in.RunID})
		write(map[string]any{"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"})
		<-start
		tick := time.NewTicker(20 * time.Millisecond) // 50 a second
		defer tick.Stop()
		for i := 1; i <= latencyEvents; i++ {
			<-tick.C
			write(map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": fmt.Sprintf("event %d ", i)})
			sent[i] = float64(time.Now().UnixMicro()) / 1000
		}
		write(map[string]any{"type": "TEXT_MESSAGE_END", "messageId": "m"})
		write(map[string]any{"type": "RUN_FINISHED", "threadId": in.ThreadID, "runId": in.RunID})
	}))
	defer agent.Close()
	insp := startProxyInspector(b, agent.URL)
	p := newBarePage(b, viewports[0])
	p.onNewDocument(countProbe)
	p.openInspector(insp.url, "")
	done := make(chan struct{})
	go func() {
		defer close(done)
		postRun(b, insp.proxy, agentInput("thread-bench", "run-1", "", nil, nil, nil))
	}()
	p.waitRun("1", "running")
	p.chooseRun("1")
	close(start)
	<-done
	p.until("every event counted", fmt.Sprintf(`window.__seen[%d] !== undefined`, latencyEvents+4))
	seen := eval[map[string]float64](p, `window.__seen`)
	var lags []float64
	for i := 1; i <= latencyEvents; i++ {
		// Event i is index i+1 (after RUN_STARTED and TEXT_MESSAGE_START):
		// on screen once the count reaches i+2.
		at := -1.0
		for n, t := range seen {
			var k int
			fmt.Sscan(n, &k)
			if k >= i+2 && (at < 0 || t < at) {
				at = t
			}
		}
		lags = append(lags, at-sent[i])
	}
	slices.Sort(lags)
	return lags[len(lags)*95/100], lags[len(lags)-1]
}

func inspectorBigRun(b *testing.B) (load, first, firstBig, big taskFigures) {
	var stream []string
	event := func(v string) { stream = append(stream, `{"event":`+v+`}`) }
	event(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	event(`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`)
	for i := range bigRunEvents - 4 {
		event(fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"%d "}`, i))
	}
	event(`{"type":"TEXT_MESSAGE_END","messageId":"m"}`)
	event(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	file := filepath.Join(b.TempDir(), "big.json")
	os.WriteFile(file, []byte(`{"name":"big","stream":[`+strings.Join(stream, ",")+`]}`), 0o644)
	small := filepath.Join(b.TempDir(), "small.json")
	const smallEvents = 31
	os.WriteFile(small, []byte(`{"name":"small","stream":[`+strings.Join(stream[:smallEvents-1], ",")+`,`+stream[len(stream)-1]+`]}`), 0o644)
	insp := startInspect(b, file, small)

	open := func() *page {
		p := newBarePage(b, viewports[0])
		p.onNewDocument(responsiveness)
		p.openInspector(insp.url, "")
		p.waitRun("1", "ok")
		l := longTasks(p)
		load.longest, load.count = max(load.longest, l.longest), load.count+l.count
		return p
	}
	p := open()
	first = openToTheEnd(p, "2", smallEvents)
	big = openToTheEnd(p, "1", bigRunEvents)
	p.close()
	firstBig = openToTheEnd(open(), "1", bigRunEvents)
	return load, first, firstBig, big
}

// openToTheEnd opens a run of n events, scrolls its timeline to the end in
// 20 steps and presses End, and returns the longest task meanwhile (0:
// none of 50 ms or more) and how many there were.
func openToTheEnd(p *page, id string, n int) taskFigures {
	p.do(chromedp.Evaluate[chromedp.Void](`window.__longTasks = []`))
	p.input(chromedp.Click(`a.run-link[data-run="` + id + `"]`))
	p.waitShown(id)
	for step := 1; step <= 20; step++ {
		p.input(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			const box = document.getElementById('timeline-box');
			box.scrollTop = (box.scrollHeight - box.clientHeight) * %d / 20;
		})()`, step)))
	}
	p.until("the last row drawn", fmt.Sprintf(`document.querySelector('.events tr[data-index="%d"]') !== null`, n-1))
	p.input(chromedp.Focus(`#timeline-box`), chromedp.KeyEvent(kb.End))
	p.until("the state at the end", fmt.Sprintf(`document.querySelector('.state')?.dataset.at === '%d'`, n-1))
	p.do(settled)
	return longTasks(p)
}

// longTasks are the long tasks the page has noted since it loaded, or
// since __longTasks was last emptied.
func longTasks(p *page) taskFigures {
	var f taskFigures
	type task struct{ Start, Duration float64 }
	for _, t := range eval[[]task](p, `window.__longTasks`) {
		f.longest = max(f.longest, t.Duration)
		f.count++
	}
	return f
}

// taskFigures are the long tasks of one opening.
type taskFigures struct {
	longest float64
	count   int
}
