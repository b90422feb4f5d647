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

// 1. The page loads idle, with the chart, and fits the phone.
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
		time.Sleep(300 * time.Millisecond)
		if n := len(serverLog.streams(p.thread())); n != 0 {
			t.Errorf("loading the page started %d runs", n)
		}
	})
}

// 2. A normal run streams to completion; the inspector compares API with
// the baseline; Search arrives with none.
func TestNormalRun(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("normal")
		p.waitStatus("Streaming", 5*time.Second)
		p.waitStatus("Completed", 5*time.Second)
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
		if got := p.inspector(); !strings.Contains(got, "60 → 145 ms, +85 ms (+142%)") {
			t.Errorf("inspector for API: %q", got)
		}
		if got := p.cell("search", 3); got != "new, no baseline" {
			t.Errorf("Search's change: %q", got)
		}
		p.input(chromedp.Click(`tr[data-service-id="search"]`))
		if got := p.inspector(); !strings.Contains(got, "new, no baseline") {
			t.Errorf("inspector for Search: %q", got)
		}
		if n := eval[int](p, `document.querySelectorAll('[data-baseline-for]').length`); n != 1 {
			t.Errorf("%d baseline marks, want API's only", n)
		}
		p.checkFits()
		if ended := p.streamsEnded(p.thread(), 1, 2*time.Second); ended[0]["end"] != "completed" {
			t.Errorf("server: %v", ended[0])
		}
	})
}

// 3. A selection made by keyboard survives the reordered snapshot: it is
// kept by id, and the chart marks it.
func TestReorderKeepsSelectionByID(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("normal")
		p.waitStatus("Streaming", 5*time.Second)
		p.input(chromedp.Focus(`tr[data-service-id="api"]`), chromedp.KeyEvent(kb.Enter))
		// The reordered snapshot is the third update, 500 ms after the first.
		if got := p.accepted(); got != "Accepted updates: 1" && got != "Accepted updates: 2" {
			t.Fatalf("selected too late to test the reorder: %q", got)
		}
		if got := p.rows(); got[0] != "api" {
			t.Fatalf("rows before the reorder: %v", got)
		}
		if !p.selected("api") {
			t.Fatal("Enter did not select the focused row")
		}
		p.waitStatus("Completed", 5*time.Second)
		if got := p.rows(); got[1] != "api" || !p.selected("api") || p.selected("auth") {
			t.Errorf("after the reorder: rows %v, api selected %v, auth selected %v", got, p.selected("api"), p.selected("auth"))
		}
		if !eval[bool](p, `document.querySelector('g[data-service-id="api"]').classList.contains('selected') &&
			!!document.querySelector('g[data-service-id="api"] circle.ring')`) {
			t.Error("API's mark lacks the selection ring")
		}
		// Space selects too, and the arrow keys move between rows.
		p.input(chromedp.Focus(`tr[data-service-id="api"]`), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(" "))
		if !p.selected("checkout") {
			t.Error("ArrowDown then Space did not select the next row")
		}
	})
}

// 4. Filtering while streaming is local: rows and marks follow, the stream
// goes on, and the server sees one request.
func TestFilteringWhileStreaming(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitStatus("Streaming", 5*time.Second)
		for filter, want := range map[string][]string{
			"Core":     {"api", "checkout"},
			"Platform": {"auth"},
			"All":      {"api", "checkout", "auth"},
		} {
			p.click(filter)
			if got := p.rows(); !slices.Equal(got, want) {
				t.Errorf("%s rows %v, want %v", filter, got, want)
			}
			if got := p.marks(); !slices.Equal(got, want) {
				t.Errorf("%s marks %v, want %v", filter, got, want)
			}
			if got := p.pressed(filter); got != "true" {
				t.Errorf("%s aria-pressed %q", filter, got)
			}
		}
		p.click("Core")
		p.waitFor("the spike", `document.querySelector('.accepted').textContent === 'Accepted updates: 2'`, 4*time.Second)
		if s := p.status(); s != "Streaming" {
			t.Errorf("status %q after filtering", s)
		}
		p.cancelAndCheckOneRequest()
	})
}

// 5. The invalid run fails on its two-operation patch and changes
// nothing; the late valid delta never applies; Recover runs once.
func TestInvalidRunAndRecover(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("invalid")
		p.waitStatus("Failed", 5*time.Second)
		alert := eval[string](p, `document.querySelector('[role=alert]')?.textContent ?? ''`)
		for _, want := range []string{"operation 2 of 2", "/services/7/latency", "no measurements changed"} {
			if !strings.Contains(alert, want) {
				t.Errorf("alert %q lacks %q", alert, want)
			}
		}
		time.Sleep(700 * time.Millisecond) // the server's late delta and RUN_FINISHED would land by now
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
		p.waitStatus("Completed", 5*time.Second)
		if got := p.accepted(); got != "Accepted updates: 4" {
			t.Errorf("recovery run: %q", got)
		}
		if n := eval[int](p, `document.querySelectorAll('[role=alert]').length`); n != 0 {
			t.Error("the old rejection still alerts")
		}
		p.streamsEnded(p.thread(), 2, 2*time.Second)
		time.Sleep(300 * time.Millisecond) // room for a third, which must not come
		if ended := serverLog.streams(p.thread()); len(ended) != 2 || ended[1]["scenario"] != "normal" || ended[1]["end"] != "completed" {
			t.Errorf("server streams %v, want the invalid run and one normal run", ended)
		}
	})
}

// 6. Cancel stops the slow run; the server sees the client go; nothing
// later applies.
func TestCancelSlowRun(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitStatus("Streaming", 5*time.Second)
		p.click("Cancel")
		p.waitStatus("Cancelled", time.Second)
		ended := p.streamsEnded(p.thread(), 1, 2*time.Second)
		if ended[0]["end"] != "client-gone" || ended[0]["events"] != float64(2) {
			t.Errorf("server: %v", ended[0])
		}
		time.Sleep(2500 * time.Millisecond) // past the spike's slot
		if got, api := p.accepted(), p.cell("api", 2); got != "Accepted updates: 1" || api != "60" {
			t.Errorf("an update arrived after Cancel: %q, API p95 %s", got, api)
		}
		if s := p.status(); s != "Cancelled" || !p.disabled("Cancel") || p.disabled("Run") {
			t.Errorf("status %q", s)
		}
	})
}

// 7. Moving between the live and retained views keeps the stream, the data
// and the selection, and starts no request.
func TestRetainedNavigation(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		p.do(chromedp.Evaluate[chromedp.Void](`window.sameDocument = true`))
		p.selectScenario("slow")
		p.click("Run")
		p.waitStatus("Streaming", 5*time.Second)
		p.input(chromedp.Click(`tr[data-service-id="api"]`))

		p.clickLink("Retained view")
		p.waitFor("the retained view", `location.pathname === '/agent-analysis/retained' && document.querySelector('h1').textContent === 'Retained view'`, 3*time.Second)
		if s := p.status(); s != "Streaming" || !p.selected("api") {
			t.Errorf("retained view: status %q, api selected %v", s, p.selected("api"))
		}
		p.waitFor("the spike, received on the retained view", `document.querySelector('.accepted').textContent === 'Accepted updates: 2'`, 4*time.Second)

		p.clickLink("Live view")
		p.waitFor("the live view", `location.pathname === '/agent-analysis'`, 3*time.Second)
		if s := p.status(); s != "Streaming" || !p.selected("api") || p.cell("api", 2) != "145" {
			t.Errorf("back: status %q, api selected %v, api p95 %s", s, p.selected("api"), p.cell("api", 2))
		}
		if !eval[bool](p, `window.sameDocument === true`) {
			t.Error("the navigation reloaded the page")
		}
		p.cancelAndCheckOneRequest()
	})
}

// 8. Leaving for /charts cancels the run and aborts the request; coming
// back shows the cancelled run's last valid data and starts nothing.
func TestRouteExit(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("slow")
		p.waitStatus("Streaming", 5*time.Second)
		thread := p.thread()

		p.clickLink("All charts")
		p.waitFor("the charts page", `location.pathname === '/charts' && document.querySelector('h1')?.textContent === 'Charts'`, 3*time.Second)
		if ended := p.streamsEnded(thread, 1, 2*time.Second); ended[0]["end"] != "client-gone" {
			t.Errorf("server: %v", ended[0])
		}

		p.clickLink("Agent Analysis: AG-UI state sync")
		p.waitFor("the demo", `location.pathname === '/agent-analysis'`, 3*time.Second)
		p.waitReady()
		if s, detail := p.status(), eval[string](p, `document.querySelector('.run-detail').textContent`); s != "Cancelled" || !strings.Contains(detail, "left the page") {
			t.Errorf("back: status %q (%s)", s, detail)
		}
		if got := p.rows(); !slices.Equal(got, []string{"api", "checkout", "auth"}) {
			t.Errorf("last valid data: %v", got)
		}
		time.Sleep(500 * time.Millisecond)
		if n := len(serverLog.streams(thread)); n != 1 {
			t.Errorf("coming back started a run: %d streams", n)
		}
	})
}

// 9. Both themes, from prefers-color-scheme and from the switch, fit the
// phone and keep status and table text readable.
func TestThemes(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		for _, scheme := range []string{"light", "dark"} {
			p.emulateColorScheme(scheme)
			p.open("/agent-analysis")
			p.click("Run")
			p.waitStatus("Completed", 5*time.Second)
			p.checkTheme(scheme)

			p.click("Dark theme") // the switch flips whatever the system says
			flipped := map[string]string{"light": "dark", "dark": "light"}[scheme]
			p.waitFor("the switch", fmt.Sprintf(`document.documentElement.dataset.theme === %q`, flipped), time.Second)
			p.checkTheme(flipped)
			p.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		}
	})
}
