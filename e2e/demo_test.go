package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page loads idle, with the chart, and fits the phone.
func TestHydration(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		if s := p.status(); s != "Idle" {
			t.Errorf("status %q", s)
		}
		if !eval[bool](p, `!!document.querySelector('svg[role=img][aria-label]')`) {
			t.Error("no labelled chart")
		}
		if p.disabled("Run") || !p.disabled("Cancel") || !p.disabled("Recover") {
			t.Errorf("Run disabled %v, Cancel %v, Recover %v", p.disabled("Run"), p.disabled("Cancel"), p.disabled("Recover"))
		}
		if got := p.accepted(); got != "Accepted updates: 0" {
			t.Errorf("%q", got)
		}
		p.checkFits()
		if n := p.runRequests(); n != 0 {
			t.Errorf("loading the page requested %d runs", n)
		}
	})
}

// A normal run streams to completion; the inspector compares API with
// the baseline; Search arrives with none.
func TestNormalRun(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("normal")
		p.waitStatus("Completed", load)
		p.checkStatuses("Idle", "Connecting", "Awaiting snapshot", "Streaming", "Completed")
		if got := p.accepted(); got != "Accepted updates: 4" {
			t.Errorf("%q", got)
		}
		if got := p.rows(); !slices.Equal(got, []string{"auth", "api", "checkout", "search"}) {
			t.Errorf("rows %v", got)
		}
		if got := p.marks(); !slices.Equal(got, []string{"auth", "api", "checkout", "search"}) {
			t.Errorf("marks %v", got)
		}
		p.input(chromedp.Click(`tr[data-service-id="api"]`))
		p.until("API in the inspector", `document.querySelector('.inspector').textContent.includes('60 → 145 ms, +85 ms (+142%)')`)
		if got := p.cell("search", 3); got != "new, no baseline" {
			t.Errorf("Search's change: %q", got)
		}
		p.input(chromedp.Click(`tr[data-service-id="search"]`))
		p.until("Search in the inspector", `document.querySelector('.inspector').textContent.includes('new, no baseline')`)
		if n := eval[int](p, `document.querySelectorAll('[data-baseline-for]').length`); n != 1 {
			t.Errorf("%d baseline marks, want API's only", n)
		}
		p.checkFits()
		if ended := p.streamsEnded(p.thread(), 1); ended[0].End != "completed" {
			t.Errorf("server: %v", ended[0])
		}
	})
}

// Selection is by id, through reorders. After the normal run's
// reordered snapshot, Enter on the row that now shows API selects API (no
// handler is left bound to the row's old service); the next run's first
// snapshot moves API from the second row to the first, and the selection
// moves with it. Nothing here races the stream: each step waits for a run
// to end.
func TestReorderKeepsSelectionByID(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("normal")
		p.waitStatus("Completed", load)
		if !p.sawRows("Streaming", "api", "checkout", "auth") {
			t.Errorf("the run never showed API first: %v", p.trace())
		}
		if got := p.rows(); !slices.Equal(got, []string{"auth", "api", "checkout", "search"}) {
			t.Fatalf("rows after the reorder %v", got)
		}
		p.input(chromedp.Focus(`tr[data-service-id="api"]`), chromedp.KeyEvent(kb.Enter))
		p.until("a selection", `document.querySelector('tr[aria-selected=true]') !== null`)
		if !p.selected("api") || p.selected("auth") || p.selected("checkout") || !strings.Contains(p.inspector(), "API") {
			t.Fatalf("Enter on API's row selected %q", eval[string](p, `document.querySelector('tr[aria-selected=true]')?.dataset.serviceId ?? ''`))
		}

		p.selectScenario("invalid")
		p.click("Run")
		p.waitStatus("Failed", load)
		if got := p.rows(); !slices.Equal(got, []string{"api", "checkout", "auth"}) || !p.selected("api") || p.selected("checkout") {
			t.Errorf("after the next run's snapshot: rows %v, api selected %v, checkout selected %v", got, p.selected("api"), p.selected("checkout"))
		}
		if !eval[bool](p, `document.querySelector('g[data-service-id="api"]').classList.contains('selected') &&
			!!document.querySelector('g[data-service-id="api"] circle.ring')`) {
			t.Error("API's mark lacks the selection ring")
		}
		// Space selects too, and the arrow keys move between rows.
		p.input(chromedp.Focus(`tr[data-service-id="api"]`), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(" "))
		p.until("ArrowDown then Space to select the next row", `document.querySelector('tr[data-service-id="checkout"]').getAttribute('aria-selected') === 'true'`)
	})
}

// Filtering while streaming is local: rows and marks follow, the stream
// goes on to its end, and the server sees one request.
func TestFilteringWhileStreaming(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitData()
		for _, filter := range []string{"Core", "Platform", "All", "Core"} {
			p.click(filter)
			p.until(filter+" pressed", buttonJS(filter)+`.getAttribute('aria-pressed') === 'true'`)
			// Search may arrive between two clicks: read rows, marks and
			// the data they come from in one look.
			got := eval[struct {
				Rows, Marks []string
				Search      bool
			}](p, `({
				rows: [...document.querySelectorAll('tbody tr[data-service-id]')].map(r => r.dataset.serviceId),
				marks: [...document.querySelectorAll('svg [data-service-id]')].map(g => g.dataset.serviceId),
				search: /Accepted updates: [3-9]/.test(document.querySelector('.accepted').textContent),
			})`)
			want := map[string][]string{"Core": {"api", "checkout"}, "Platform": {"auth"}, "All": {"api", "checkout", "auth"}}[filter]
			if got.Search && filter != "Core" {
				want = append(slices.Clone(want), "search")
			}
			if !slices.Equal(got.Rows, want) || !slices.Equal(got.Marks, want) {
				t.Errorf("%s: rows %v, marks %v, want %v", filter, got.Rows, got.Marks, want)
			}
			if got := p.pressed(filter); got != "true" {
				t.Errorf("%s aria-pressed %q", filter, got)
			}
		}
		p.waitStatus("Completed", load)
		p.checkStatuses("Idle", "Connecting", "Awaiting snapshot", "Streaming", "Completed")
		if got, rows := p.accepted(), p.rows(); got != "Accepted updates: 3" || !slices.Equal(rows, []string{"api", "checkout"}) {
			t.Errorf("%q, Core rows %v", got, rows)
		}
		p.streamsEnded(p.thread(), 1)
		if n := p.runRequests(); n != 1 {
			t.Errorf("the page requested %d runs, want 1", n)
		}
		if ended := serverLog.streams(p.thread()); len(ended) != 1 || ended[0].End != "completed" {
			t.Errorf("server streams %v, want one that completed", ended)
		}
	})
}

// The invalid run fails on its two-operation patch and changes
// nothing; the late valid delta never applies; Recover runs once.
func TestInvalidRunAndRecover(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("invalid")
		p.waitStatus("Failed", load)
		alert := eval[string](p, `document.querySelector('[role=alert]')?.textContent ?? ''`)
		for _, want := range []string{"operation 2 of 2", "/services/7/latency", "no measurements changed"} {
			if !strings.Contains(alert, want) {
				t.Errorf("alert %q lacks %q", alert, want)
			}
		}
		// Once the server has seen the client go, nothing more can arrive.
		if ended := p.streamsEnded(p.thread(), 1); ended[0].End != "client-gone" {
			t.Errorf("server: %v", ended[0])
		}
		if got := p.cell("checkout", 2); got != "92" {
			t.Errorf("Checkout p95 %q, want 92", got)
		}
		if got := p.cell("auth", 2); got != "35" {
			t.Errorf("Auth p95 %q: the late delta applied", got)
		}
		if got, s := p.accepted(), p.status(); got != "Accepted updates: 2" || s != "Failed" {
			t.Errorf("%q, status %q", got, s)
		}
		if p.disabled("Recover") || !p.disabled("Cancel") {
			t.Error("Recover must be the way out")
		}
		p.checkFits()

		p.click("Recover")
		p.waitStatus("Completed", load)
		if got := p.accepted(); got != "Accepted updates: 4" {
			t.Errorf("recovery run: %q", got)
		}
		if n := eval[int](p, `document.querySelectorAll('[role=alert]').length`); n != 0 {
			t.Error("the old rejection still alerts")
		}
		p.streamsEnded(p.thread(), 2)
		if n := p.runRequests(); n != 2 {
			t.Errorf("the page requested %d runs, want 2", n)
		}
		if ended := serverLog.streams(p.thread()); len(ended) != 2 || ended[1].Scenario != "normal" || ended[1].End != "completed" {
			t.Errorf("server streams %v, want the invalid run and one normal run", ended)
		}
	})
}

// Cancel stops the slow run; the server sees the client go; nothing
// later applies.
func TestCancelSlowRun(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitData()
		p.click("Cancel")
		p.waitStatus("Cancelled", load)
		accepted := p.acceptedCount()
		ended := p.streamsEnded(p.thread(), 1)
		// The server may have written one event the client never applied.
		if sent := ended[0].Events; ended[0].End != "client-gone" || sent < 1+accepted || sent > 2+accepted {
			t.Errorf("server: %v, client accepted %d", ended[0], accepted)
		}
		if got := p.acceptedCount(); got != accepted || accepted < 1 || accepted == 3 {
			t.Errorf("accepted %d, then %d after the server saw the client go", accepted, got)
		}
		if api, want := p.cell("api", 2), map[bool]string{true: "60", false: "145"}[accepted == 1]; api != want {
			t.Errorf("API p95 %s after %d updates, want %s", api, accepted, want)
		}
		if s := p.status(); s != "Cancelled" || !p.disabled("Cancel") || p.disabled("Run") {
			t.Errorf("status %q", s)
		}
		// The browser reports the aborted fetch on its own schedule.
		for deadline := time.Now().Add(load); p.abortedRequests() < 1 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if n := p.abortedRequests(); n != 1 {
			t.Errorf("the page aborted %d requests, want its one stream", n)
		}
	})
}

// Moving between the live and retained views keeps the stream, the data
// and the selection, and starts no request: the one run goes on to its end.
func TestRetainedNavigation(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		p.do(chromedp.Evaluate[chromedp.Void](`window.sameDocument = true`))
		p.selectScenario("slow")
		p.click("Run")
		p.waitData()
		p.input(chromedp.Click(`tr[data-service-id="api"]`))

		p.clickLink("Retained view")
		p.waitFor("the retained view", `location.pathname === '/agent-analysis/retained' && document.querySelector('h1').textContent === 'Retained view'`, load)
		if detail := eval[string](p, `document.querySelector('.run-detail').textContent`); !p.selected("api") || !strings.HasPrefix(detail, "run-1 ") {
			t.Errorf("retained view: %q, api selected %v", detail, p.selected("api"))
		}
		p.waitFor("the spike", `document.querySelector('.accepted').textContent !== 'Accepted updates: 1'`, load)

		p.clickLink("Live view")
		p.waitFor("the live view", `location.pathname === '/agent-analysis'`, load)
		p.waitStatus("Completed", load)
		if !p.selected("api") || p.cell("api", 2) != "145" || p.accepted() != "Accepted updates: 3" {
			t.Errorf("back: api selected %v, api p95 %s, %s", p.selected("api"), p.cell("api", 2), p.accepted())
		}
		// Completed comes with RUN_FINISHED; the stream closes after it.
		p.waitFor("the stream to close", `!document.querySelector('.run-detail').textContent.includes('stream still open')`, load)
		if got := eval[string](p, `document.querySelector('.run-detail').textContent`); got != "run-1 · finished" {
			t.Errorf("run detail %q: the first run must be the one that finished", got)
		}
		p.checkStatuses("Idle", "Connecting", "Awaiting snapshot", "Streaming", "Completed")
		if !eval[bool](p, `window.sameDocument === true`) {
			t.Error("the navigation reloaded the page")
		}
		p.streamsEnded(p.thread(), 1)
		if n := p.runRequests(); n != 1 {
			t.Errorf("the page requested %d runs, want 1", n)
		}
		if ended := serverLog.streams(p.thread()); len(ended) != 1 || ended[0].End != "completed" {
			t.Errorf("server streams %v, want the one run, completed", ended)
		}
	})
}

// Leaving for /charts cancels the run and aborts the request; coming
// back shows the cancelled run's last valid data and starts nothing.
func TestRouteExit(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitData()
		thread := p.thread()

		p.clickLink("All charts")
		p.waitFor("the charts page", `location.pathname === '/charts' && document.querySelector('h1')?.textContent === 'Charts'`, load)
		if ended := p.streamsEnded(thread, 1); ended[0].End != "client-gone" {
			t.Errorf("server: %v", ended[0])
		}

		p.clickLink("Agent Analysis: AG-UI state sync")
		p.waitFor("the demo", `location.pathname === '/agent-analysis'`, load)
		p.waitReady()
		if s, detail := p.status(), eval[string](p, `document.querySelector('.run-detail').textContent`); s != "Cancelled" || !strings.Contains(detail, "left the page") {
			t.Errorf("back: status %q (%s)", s, detail)
		}
		if got := p.rows(); !slices.Equal(got, []string{"api", "checkout", "auth"}) && !slices.Equal(got, []string{"api", "checkout", "auth", "search"}) {
			t.Errorf("last valid data: %v", got)
		}
		if n := p.runRequests(); n != 1 {
			t.Errorf("coming back requested a run: %d requests", n)
		}
	})
}

// Both themes, from prefers-color-scheme and from the switch, fit the
// phone and keep status and table text readable.
func TestThemes(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		for _, scheme := range []string{"light", "dark"} {
			p.emulateColorScheme(scheme)
			p.open("/agent-analysis")
			p.click("Run")
			p.waitStatus("Completed", load)
			p.checkTheme(scheme)

			p.click("Dark theme") // the switch flips whatever the system says
			flipped := map[string]string{"light": "dark", "dark": "light"}[scheme]
			p.waitFor("the switch", fmt.Sprintf(`document.documentElement.dataset.theme === %q`, flipped), load)
			p.checkTheme(flipped)
			p.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		}
	})
}

// The page going away (a reload, a closed tab, the back/forward cache)
// ends the run through Update: it shows as cancelled by leaving, not as
// live, and the server sees the client go.
func TestPageHideEndsTheRun(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitData()
		p.input(chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))`))
		p.waitStatus("Cancelled", load)
		if detail := eval[string](p, `document.querySelector('.run-detail').textContent`); !strings.Contains(detail, "left the page") {
			t.Errorf("run detail %q", detail)
		}
		if ended := p.streamsEnded(p.thread(), 1); ended[0].End != "client-gone" {
			t.Errorf("server: %v", ended[0])
		}
	})
}
