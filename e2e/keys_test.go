package e2e

import (
	"fmt"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// press sends keys as a keyboard does and waits until the page has drawn.
func (p *page) press(keys ...string) {
	p.t.Helper()
	var actions []chromedp.Action[chromedp.Void]
	for _, k := range keys {
		actions = append(actions, chromedp.KeyEvent(k))
	}
	p.input(actions...)
}

// expectFocus waits until focus is on want: keys handled in Go move focus
// a frame later than the browser's own Tab.
func (p *page) expectFocus(want string) {
	p.t.Helper()
	p.waitFor("focus on "+want, fmt.Sprintf(`(() => { const e = document.activeElement; return (%s) === %q; })()`, focusJS, want), load)
}

// tab presses Tab once for each place given, checking that focus lands
// on each in turn.
func (p *page) tab(places ...string) {
	p.t.Helper()
	for _, want := range places {
		p.press(kb.Tab)
		p.expectFocus(want)
	}
}

// backTab does the same with Shift+Tab.
func (p *page) backTab(places ...string) {
	p.t.Helper()
	for _, want := range places {
		p.input(chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		p.expectFocus(want)
	}
}

// waitEnabled waits until the named button can be used: a key pressed
// before go-app has drawn the state that enables it would skip it.
func (p *page) waitEnabled(name string) {
	p.t.Helper()
	p.until(name+" enabled", buttonJS(name)+`?.disabled === false`)
}

// via serves the page's site through a gate from now on.
func (p *page) via(g *gate) { p.base = g.url }
