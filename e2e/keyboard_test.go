package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// 11. The keyboard: the skip link moves focus into main; the table is one
// tab stop with Home and End; a button that disables itself hands focus
// to Run.
func TestKeyboard(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		p.input(chromedp.KeyEvent(kb.Tab))
		if got := eval[string](p, `document.activeElement.textContent`); got != "Skip to content" {
			t.Fatalf("the first Tab reaches %q", got)
		}
		p.input(chromedp.KeyEvent(kb.Enter))
		p.until("the skip link to focus main", `document.activeElement.id === 'main'`)

		p.selectScenario("normal")
		p.input(chromedp.Focus("#run"), chromedp.KeyEvent(kb.Enter))
		p.waitStatus("Completed", load)
		if n := eval[int](p, `document.querySelectorAll('tbody tr[tabindex="0"]').length`); n != 1 {
			t.Errorf("%d rows are tab stops, want 1", n)
		}
		p.input(chromedp.Focus(`tbody tr[tabindex="0"]`), chromedp.KeyEvent(kb.End))
		p.until("End to focus the last row", `document.activeElement.dataset.serviceId === 'search'`)
		p.input(chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.Enter))
		p.until("Home then Enter to select Auth", `document.querySelector('tr[data-service-id="auth"]').getAttribute('aria-selected') === 'true'`)
		p.until("focus on Auth", `document.activeElement.dataset.serviceId === 'auth'`)

		p.selectScenario("slow")
		p.input(chromedp.Focus("#run"), chromedp.KeyEvent(kb.Enter))
		p.until("Cancel to be enabled", `!`+buttonJS("Cancel")+`.disabled`)
		p.input(chromedp.Focus(`//button[normalize-space()="Cancel"]`), chromedp.KeyEvent(kb.Enter))
		p.waitStatus("Cancelled", load)
		p.until("focus to move to Run when Cancel disabled itself", `document.activeElement.id === 'run'`)
	})
}
