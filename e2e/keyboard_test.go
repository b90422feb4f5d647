package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func (p *page) focused() string {
	return eval[string](p, `(() => { const a = document.activeElement; return a.dataset.serviceId || a.id || a.tagName; })()`)
}

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
		if got := p.focused(); got != "main" {
			t.Errorf("the skip link left focus on %q", got)
		}

		p.selectScenario("normal")
		p.input(chromedp.Focus("#run"), chromedp.KeyEvent(kb.Enter))
		p.waitStatus("Completed", load)
		if n := eval[int](p, `document.querySelectorAll('tbody tr[tabindex="0"]').length`); n != 1 {
			t.Errorf("%d rows are tab stops, want 1", n)
		}
		p.input(chromedp.Focus(`tbody tr[tabindex="0"]`), chromedp.KeyEvent(kb.End))
		if got := p.focused(); got != "search" {
			t.Errorf("End moved focus to %q", got)
		}
		p.input(chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.Enter))
		if got := p.focused(); got != "auth" || !p.selected("auth") {
			t.Errorf("Home then Enter: focus %q, auth selected %v", got, p.selected("auth"))
		}

		p.selectScenario("slow")
		p.input(chromedp.Focus("#run"), chromedp.KeyEvent(kb.Enter))
		p.waitData()
		p.input(chromedp.Focus(`//button[normalize-space()="Cancel"]`), chromedp.KeyEvent(kb.Enter))
		p.waitStatus("Cancelled", load)
		if got := p.focused(); got != "run" {
			t.Errorf("after Cancel disabled itself, focus is on %q", got)
		}
	})
}
