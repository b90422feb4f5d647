package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// The whole demo by keyboard alone, checking focus after every key:
// the skip link, the Scenario select, Run, the filters, the one-tab-stop
// table with its arrows, Home and End, focus staying on API through two
// reorders and the tab stop through filters, the disclosures, a failure and Recover, Cancel, and a run
// ending under a focused Cancel. Where a key must land while a run is
// connecting, a gate holds the stream's frames, so nothing races it.
func TestKeyboard(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		gate := startGate(t)
		p.via(gate)
		p.open("/agent-analysis")

		// The skip link moves focus into main; the next Tab is the select.
		p.tab("a:Skip to content")
		p.press(kb.Enter)
		p.expectFocus("#main")
		p.tab("#scenario", "#run")

		// Run the normal scenario.
		p.press(kb.Enter)
		gate.next().passAll()
		p.waitStatus("Completed", load)
		p.expectFocus("#run")

		// Cancel and Recover are disabled, so Tab skips them; the table is
		// one tab stop, its first row while nothing is selected.
		p.tab("button:All", "button:Core", "button:Platform", "row:auth")
		if n := eval[int](p, `document.querySelectorAll('tbody tr[tabindex="0"]').length`); n != 1 {
			t.Errorf("%d rows are tab stops, want 1", n)
		}
		p.press(kb.ArrowDown)
		p.expectFocus("row:api")
		p.press(kb.End)
		p.expectFocus("row:search")
		p.press(kb.Home)
		p.expectFocus("row:auth")
		p.press(kb.ArrowDown)
		p.expectFocus("row:api")
		p.press(kb.Enter)
		p.until("Enter to select API", `document.querySelector('tr[data-service-id="api"]').getAttribute('aria-selected') === 'true'`)
		if got := eval[string](p, `document.querySelector('tr[aria-selected="true"] th').innerText`); !strings.Contains(got, "API") {
			t.Errorf("the selected row reads %q", got)
		}
		p.tab("summary:Activity (last 12)")
		p.backTab("row:api") // the tab stop is now the selected row

		// A second normal run while focus is on API's row: its first
		// snapshot moves API from the second row to the first, its second
		// moves it back; focus stays on API through both.
		p.backTab("button:Platform", "button:Core", "button:All", "#run")
		p.press(kb.Enter)
		held := gate.next()
		p.waitEnabled("Cancel") // the run is drawn as started: Tab now reaches Cancel
		p.tab("button:Cancel", "button:All", "button:Core", "button:Platform", "row:api")
		before := len(p.trace())
		held.passAll()
		p.waitStatus("Completed", load)
		p.expectFocus("row:api")
		after := p.trace()[before:]
		if !slices.ContainsFunc(after, func(e traceEntry) bool { return strings.HasPrefix(e.Rows, "api,") }) {
			t.Errorf("the run never showed API first: %v", after)
		}
		for _, e := range after {
			if e.Focus != "row:api" {
				t.Errorf("focus left API during the reorders: %+v", e)
			}
		}
		p.press(" ")
		if !p.selected("api") {
			t.Error("Space on API's row after the reorders selected something else")
		}

		// A filter redraws the rows. Core keeps API shown and selected, and
		// back under All the tab stop is API's row, the second, not the
		// first. Platform hides API, which drops the selection (selection
		// is kept only while shown): the tab stop is then the first row.
		p.backTab("button:Platform", "button:Core")
		p.press(kb.Enter)
		p.until("the Core filter", `document.querySelector('tr[data-service-id="auth"]') === null`)
		p.tab("button:Platform", "row:api")
		p.backTab("button:Platform", "button:Core", "button:All")
		p.press(kb.Enter)
		p.until("the All filter", `document.querySelector('tr[data-service-id="auth"]') !== null`)
		if eval[string](p, `document.querySelector('tbody tr').dataset.serviceId`) == "api" {
			t.Fatal("API is the first row, so the tab stop proves nothing")
		}
		p.tab("button:Core", "button:Platform", "row:api")
		p.backTab("button:Platform")
		p.press(kb.Enter)
		p.until("the Platform filter", `document.querySelector('tr[data-service-id="api"]') === null`)
		p.tab("row:auth")
		p.backTab("button:Platform", "button:Core", "button:All")
		p.press(kb.Enter)
		p.until("the All filter", `document.querySelector('tr[data-service-id="api"]') !== null`)
		p.tab("button:Core", "button:Platform", "row:auth")
		p.press(kb.ArrowDown)
		p.expectFocus("row:api")
		p.press(" ")
		p.until("Space to select API again", `document.querySelector('tr[data-service-id="api"]').getAttribute('aria-selected') === 'true'`)

		// The disclosures open from the keyboard.
		p.tab("summary:Activity (last 12)")
		p.press(kb.Enter)
		p.until("Activity to open", `document.querySelector('details.activity').open`)
		p.tab("summary:Wire (this run's events, last 50)")

		// A failing run, then Recover: Recover disables itself and hands
		// focus to Run, and the select says normal again.
		p.expectFocus("summary:Wire (this run's events, last 50)")
		p.backTab("summary:Activity (last 12)", "row:api", "button:Platform", "button:Core", "button:All", "#run", "#scenario")
		p.press(kb.ArrowDown)
		p.until("ArrowDown to choose invalid", `document.getElementById('scenario').value === 'invalid'`)
		p.tab("#run")
		p.press(kb.Enter)
		gate.next().passAll()
		p.waitStatus("Failed", load)
		p.tab("button:Recover")
		p.press(kb.Enter)
		p.expectFocus("#run")
		gate.next().passAll()
		p.waitStatus("Completed", load)
		if got := eval[string](p, `document.getElementById('scenario').value`); got != "normal" {
			t.Errorf("after Recover the select says %q", got)
		}

		// Cancel while the run connects: Cancel disables itself and hands
		// focus to Run.
		p.press(kb.Enter)
		gate.next() // held: no frame gets through before Cancel
		p.waitEnabled("Cancel")
		p.tab("button:Cancel")
		p.press(kb.Enter)
		p.waitStatus("Cancelled", load)
		p.expectFocus("#run")
		if ended := p.streamsEnded(p.thread(), 5); ended[4].End != "client-gone" {
			t.Errorf("the cancelled stream ended %v", ended[4].End)
		}

		// A run that ends by itself under a focused Cancel: focus goes to
		// Run, never to the page.
		p.press(kb.Enter)
		held = gate.next()
		p.waitEnabled("Cancel")
		p.tab("button:Cancel")
		before = len(p.trace())
		held.passAll()
		p.waitStatus("Completed", load)
		p.expectFocus("#run")
		for _, e := range p.trace()[before:] {
			if e.Focus == "body" {
				t.Errorf("focus fell to the page: %+v", e)
			}
		}
	})
}
