package e2e

import (
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A long list, at 1280, 390 and 320 px: 1,000 services, the table
// virtualised. The grid counts every row while only those near the view
// are in the page, each saying where it is; the chart draws every mark;
// keys walk past the rows in the page with focus on the service they
// moved to; focus follows a service whose row scrolls out of the page and
// back; a delta redraws the row it changed; a reorder that moves the
// focused service to the end keeps focus on it; and the page still fits.
func TestLongList(t *testing.T) {
	atViewports(t, append(viewports, narrow), func(t *testing.T, p *page) {
		agent := startCrowdAgent(t, 1000)
		p.base = agent.url
		p.open("/agent-analysis")
		p.click("Run")
		agent.next() // the snapshot
		p.until("the crowd drawn", `document.querySelector('.accepted').textContent === 'Accepted updates: 1' &&
			document.querySelector('svg.chart').dataset.drawing === 'false'`)

		if got := eval[string](p, `document.querySelector('[role=grid]').getAttribute('aria-rowcount')`); got != "1001" {
			t.Errorf("aria-rowcount %s", got)
		}
		if n := eval[int](p, `document.querySelectorAll('tbody tr[data-service-id]').length`); n < 10 || n > 120 {
			t.Errorf("%d rows in the page", n)
		}
		if n := eval[int](p, `document.querySelectorAll('svg.chart [data-service-id]').length`); n != 1000 {
			t.Errorf("%d marks", n)
		}
		rowIndex := func() string {
			return eval[string](p, `document.activeElement.getAttribute('aria-rowindex') ?? ''`)
		}

		p.input(chromedp.Focus(`tr[data-service-id="s0"]`))
		p.expectFocus("row:s0")
		p.press(kb.End)
		p.expectFocus("row:s999")
		if got := rowIndex(); got != "1001" {
			t.Errorf("the last row's aria-rowindex %s", got)
		}
		p.press(kb.ArrowUp)
		p.expectFocus("row:s998")
		p.press(kb.Home)
		p.expectFocus("row:s0")
		p.press(kb.PageDown)
		p.until("Page Down to move focus a view down", `(() => {
			const row = document.activeElement, box = document.getElementById('services-box');
			if (row.tagName !== 'TR' || Number(row.getAttribute('aria-rowindex')) < 4) return false;
			const r = row.getBoundingClientRect(), b = box.getBoundingClientRect();
			return r.top >= b.top && r.bottom <= b.bottom + 1;
		})()`)
		p.press(kb.Home)
		p.expectFocus("row:s0")

		// A scroll that draws other rows while the focused one stays in the
		// page, and in view (focus on a row out of view would scroll the box
		// back to it): go-app keeps row elements by position, and focus must
		// stay with the service, not with the element.
		p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('tr[data-service-id="s18"]').focus()`))
		p.expectFocus("row:s18")
		p.do(chromedp.Evaluate[chromedp.Void](`(() => {
			const box = document.getElementById('services-box');
			box.scrollTop = 14 * box.querySelector('tr[data-service-id]').getBoundingClientRect().height;
		})()`))
		p.until("the rows drawn from the third", `document.querySelector('tbody tr[data-service-id]').dataset.serviceId === 's2'`)
		p.expectFocus("row:s18")
		// Scrolled away, the focused row leaves the page (or its element
		// shows another service) and the box keeps focus for it; scrolled
		// back, focus is on its row again.
		awayAndBack := func(id string) {
			p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('services-box').scrollTop = 40000`))
			p.until("the row of "+id+" to leave the page", `document.querySelector('tr[data-service-id="`+id+`"]') === null`)
			p.expectFocus("#services-box")
			p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('services-box').scrollTop = 0`))
			p.expectFocus("row:" + id)
		}
		awayAndBack("s18")
		p.press(kb.Home)
		p.expectFocus("row:s0")
		awayAndBack("s0")

		agent.event(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/3/latency","value":199}]}`)
		p.until("the delta's row redrawn", `document.querySelector('tr[data-service-id="s3"] td:nth-of-type(2)')?.textContent === '199'`)
		p.expectFocus("row:s0")
		p.press(kb.Enter)
		p.until("Enter to select the row", `document.querySelector('tr[data-service-id="s0"]').getAttribute('aria-selected') === 'true'`)

		services := crowd(1000)
		moved, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": append(services[1:], services[0])}})
		agent.event(string(moved))
		p.until("the reorder drawn", `document.querySelector('.accepted').textContent === 'Accepted updates: 3'`)
		p.expectFocus("row:s0")
		if got := rowIndex(); got != "1001" {
			t.Errorf("after the reorder, the focused row's aria-rowindex %s", got)
		}
		agent.finish()
		p.waitStatus("Completed", load)
		p.checkFits()
	})
}
