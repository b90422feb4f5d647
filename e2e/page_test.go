package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/inspector"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// viewport is one screen the suite checks.
type viewport struct {
	name          string
	width, height int64
	mobile        bool
}

var viewports = []viewport{
	{name: "desktop", width: 1280, height: 800},
	{name: "phone", width: 390, height: 844, mobile: true},
}

// narrow is the smallest phone the screen must fit.
var narrow = viewport{name: "narrow", width: 320, height: 640, mobile: true}

// page is one browser tab at one viewport, in a browser context of its
// own (fresh storage), watched for anything that went wrong.
type page struct {
	t    testing.TB
	ctx  context.Context
	vp   viewport
	base string // the site: the suite's server, or a gate in front of it

	mu       sync.Mutex
	problems []string
	expected []string // problems a test provokes on purpose, by a text they contain
	aborted  int      // requests the page aborted

	closeTab func() // closes the tab and its browser context
	closed   bool   // the tab was closed before the test ended
}

// atEachViewport runs f at both viewports, each in a fresh page.
func atEachViewport(t *testing.T, f func(t *testing.T, p *page)) {
	atViewports(t, viewports, f)
}

func atViewports(t *testing.T, vps []viewport, f func(t *testing.T, p *page)) {
	for _, vp := range vps {
		t.Run(vp.name, func(t *testing.T) {
			start := time.Now()
			p := newPage(t, vp)
			f(t, p)
			p.checkClean()
			t.Logf("%s took %v", t.Name(), time.Since(start).Round(10*time.Millisecond))
		})
	}
}

func newPage(t testing.TB, vp viewport) *page {
	p := newBarePage(t, vp)
	p.onNewDocument(traceProbe)
	p.onNewDocument(requestProbe)
	return p
}

// requestProbe counts the run requests the page makes, as it makes them:
// the wasm's fetch is the window's.
const requestProbe = `(() => {
	window.__runRequests = 0;
	const fetch = window.fetch;
	window.fetch = function (url, ...rest) {
		if (String(url).endsWith('/api/agent-analysis')) window.__runRequests++;
		return fetch.call(this, url, ...rest);
	};
})()`

// runRequests is how many runs this document has requested, once the page
// has handled every input so far and drawn the result: a request an input
// leads to is made while the input is handled, so none can come later.
func (p *page) runRequests() int {
	p.t.Helper()
	p.do(settled)
	return eval[int](p, `window.__runRequests`)
}

// newBarePage is a page without the trace probe, whose work on every
// change to the DOM a benchmark must not count.
func newBarePage(t testing.TB, vp viewport) *page {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	// A loaded machine is slow, never wrong: every wait returns as soon as
	// its condition holds, so generous limits cost the happy path nothing.
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancelTimeout)
	p := &page{t: t, ctx: ctx, vp: vp, base: baseURL, closeTab: func() { cancelTimeout(); cancel() }}
	p.watch()
	t.Cleanup(func() {
		if t.Failed() && !p.closed {
			p.keepArtifacts()
		}
	})
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if vp.mobile {
		opts = []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch}
	}
	p.do(chromedp.EmulateViewport(vp.width, vp.height, opts...))
	return p
}

// close closes the tab before the test ends, for a benchmark that opens
// one page after another: the pages it is done with neither stay in the
// browser's memory nor leave artifacts when it fails.
func (p *page) close() {
	p.closed = true
	p.closeTab()
}

// watch records uncaught exceptions, console errors, a Go panic (printed
// by the wasm as console.log lines) and failed requests. It sees the
// events in the order they arrive, each before any command that follows
// it returns: a check after a command has seen everything before it.
func (p *page) watch() {
	record := func(format string, args ...any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.problems = append(p.problems, fmt.Sprintf(format, args...))
	}
	err := chromedp.Listen(p.ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			record("uncaught exception: %s %s", ev.ExceptionDetails.Text, describe(ev.ExceptionDetails.Exception))
		case *runtime.EventConsoleAPICalled:
			text := consoleText(*ev)
			switch {
			case ev.Type == runtime.ConsoleAPICalledTypeError:
				record("console.error: %s", text)
			case strings.HasPrefix(text, "panic:") || strings.Contains(text, "exit code:"):
				record("the wasm died: %s", text)
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				record("browser error: %s %s", ev.Entry.Text, ev.Entry.URL)
			}
		case *inspector.EventTargetCrashed:
			record("the tab's renderer crashed")
		case *network.EventLoadingFailed:
			if ev.Canceled {
				p.mu.Lock()
				p.aborted++ // checked by the tests that cancel
				p.mu.Unlock()
				return
			}
			record("request failed: %s (%s)", ev.ErrorText, ev.Type)
		}
	})
	if err != nil {
		p.t.Fatal(err)
	}
	// The domains whose events are watched.
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, enable := range []func() error{
			func() error { _, err := cdp.Call(ctx, t, runtime.Enable, cdp.Empty{}); return err },
			func() error { _, err := cdp.Call(ctx, t, cdplog.Enable, cdp.Empty{}); return err },
			func() error { _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); return err },
			func() error { _, err := cdp.Call(ctx, t, inspector.Enable, cdp.Empty{}); return err },
		} {
			if err := enable(); err != nil {
				return err
			}
		}
		return nil
	}))
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	return o.Description
}

func consoleText(ev runtime.EventConsoleAPICalled) string {
	var parts []string
	for _, a := range ev.Args {
		if a.Value != nil {
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
				continue
			}
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func (p *page) checkClean() {
	// A round trip: what the page reported before it has been seen.
	eval[bool](p, `true`)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, problem := range p.problems {
		if !slices.ContainsFunc(p.expected, func(e string) bool { return strings.Contains(problem, e) }) {
			p.t.Error(problem)
		}
	}
}

// expect lets problems containing text pass: the test provokes them.
func (p *page) expect(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = append(p.expected, text)
}

func (p *page) abortedRequests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.aborted
}

// keepArtifacts saves a screenshot and the DOM of a failed test.
func (p *page) keepArtifacts() {
	dir := filepath.Join("artifacts", regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(p.t.Name(), "_"))
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		p.t.Log(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(p.ctx), 10*time.Second)
	defer cancel()
	// A tab that does not answer (crashed, or its one thread held) leaves
	// nothing to keep: say so, rather than name files that are not there.
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("no screenshot nor DOM kept: the tab did not give one: %v", err)
		return
	}
	os.WriteFile(dir+".png", png, 0o644)
	if html, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`)); err == nil {
		os.WriteFile(dir+".html", []byte(html), 0o644)
	}
	p.t.Logf("artifacts: e2e/%s.{png,html}", dir)
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("%v%s", err, p.seen())
	}
}

// seen is what went wrong in the page so far, for a failure's message: an
// action that timed out says little when the tab had crashed.
func (p *page) seen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.problems) == 0 {
		return ""
	}
	return "; the page meanwhile: " + strings.Join(p.problems, "; ")
}

func eval[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: %v%s", js, err, p.seen())
	}
	return v
}

// evalAwait evaluates an expression that yields a promise, and its value.
func evalAwait[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds.
func (p *page) waitFor(what, js string, timeout time.Duration) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js,
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v (status %q)%s", what, err, p.status(), p.seen())
	}
}

// until waits, as long as a loaded machine may need, for what an input
// must lead to: go-app handles events in Go and draws in a later frame.
func (p *page) until(what, js string) {
	p.t.Helper()
	p.waitFor(what, js, load)
}

// open loads a path and waits until the wasm has mounted the page.
func (p *page) open(path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base + path))
	p.waitReady()
}

func (p *page) waitReady() {
	p.t.Helper()
	p.waitFor("the app to start", `document.querySelector('[data-ready="true"]') !== null`, 2*load)
	// The chart is drawn at the width of its box once the app has measured it.
	p.waitFor("the chart to fit its box", `(() => {
		const box = document.getElementById('chart-box');
		return !box || Number(box.querySelector('svg').getAttribute('viewBox').split(' ')[2]) === Math.floor(box.getBoundingClientRect().width);
	})()`, load)
}

// settled waits for the page to draw what the last input did: go-app
// renders once per animation frame.
var settled = chromedp.Evaluate[chromedp.Void](
	`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r))))`,
	chromedp.EvalAwaitPromise)

// input runs user actions, then waits until the page has drawn them.
func (p *page) input(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	p.do(append(actions, settled)...)
}

// click presses a button by its visible name, with a real mouse or touch.
func (p *page) click(name string) {
	p.t.Helper()
	p.input(chromedp.Click(fmt.Sprintf(`//button[normalize-space()=%q]`, name)))
}

func (p *page) clickLink(name string) {
	p.t.Helper()
	p.input(chromedp.Click(fmt.Sprintf(`//a[normalize-space()=%q]`, name)))
}

func (p *page) status() string {
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector('[role=status]')?.textContent ?? ''`))
	return s
}

func (p *page) waitStatus(word string, timeout time.Duration) {
	p.t.Helper()
	p.waitFor("status "+word, fmt.Sprintf(`document.querySelector('[role=status]')?.textContent === %q`, word), timeout)
}

// thread is the page's AG-UI thread id: the server logs it per stream.
func (p *page) thread() string {
	return eval[string](p, `document.querySelector('[data-thread]').dataset.thread`)
}

func (p *page) accepted() string {
	return eval[string](p, `document.querySelector('.accepted').textContent`)
}

// buttonJS is a JavaScript expression for the button with this name.
func buttonJS(name string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('button')].find(b => b.textContent.trim() === %q)`, name)
}

func (p *page) disabled(name string) bool {
	return eval[bool](p, buttonJS(name)+`.disabled`)
}

func (p *page) pressed(name string) string {
	return eval[string](p, buttonJS(name)+`.getAttribute('aria-pressed')`)
}

// waitData waits for the first snapshot's rows.
func (p *page) waitData() {
	p.t.Helper()
	p.waitFor("the snapshot", `document.querySelectorAll('tbody tr[data-service-id]').length > 0`, load)
}

// rows is the table's service names in order.
func (p *page) rows() []string {
	return eval[[]string](p, `[...document.querySelectorAll('tbody tr[data-service-id]')].map(r => r.dataset.serviceId)`)
}

// marks is the chart's service marks in order.
func (p *page) marks() []string {
	return eval[[]string](p, `[...document.querySelectorAll('svg [data-service-id]')].map(g => g.dataset.serviceId)`)
}

func (p *page) cell(id string, column int) string {
	return eval[string](p, fmt.Sprintf(`document.querySelector('tr[data-service-id=%q]').children[%d].textContent`, id, column))
}

// overflow is how far the document is wider than the viewport.
func (p *page) overflow() int {
	return eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
}

// emulateColorScheme sets prefers-color-scheme.
func (p *page) emulateColorScheme(scheme string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	}))
}

// startRun opens the demo, picks a scenario and presses Run.
func (p *page) startRun(scenario string) {
	p.t.Helper()
	p.open("/agent-analysis")
	p.selectScenario(scenario)
	p.click("Run")
}

// streamsEnded waits until the server has logged n ended streams of a
// thread and returns them, oldest first.
func (p *page) streamsEnded(thread string, n int) []logLine {
	p.t.Helper()
	deadline := time.Now().Add(load)
	for {
		got := serverLog.streams(thread)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("server logged %d ended streams of %s, want %d: %v", len(got), thread, n, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *page) inspector() string {
	return eval[string](p, `document.querySelector('.inspector').textContent`)
}

func (p *page) selected(id string) bool {
	return eval[bool](p, fmt.Sprintf(`document.querySelector('tr[data-service-id=%q]')?.getAttribute('aria-selected') === 'true'`, id))
}

// selectScenario picks an option as a user does (the select changes and
// fires its change event), then waits until the page has taken it: the
// line under the select describes it.
func (p *page) selectScenario(name string) {
	p.t.Helper()
	script, ok := fixtures.Lookup(name)
	if !ok {
		p.t.Fatalf("no scenario %q", name)
	}
	p.selectScript(name, script.Description)
}

// selectScript picks any script the server offers, and waits for the line
// under the select to say what it sends.
func (p *page) selectScript(name, description string) {
	p.t.Helper()
	p.input(chromedp.SetValue(chromedp.ID("scenario"), name),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('scenario').dispatchEvent(new Event('change', {bubbles: true}))`))
	p.waitFor("the "+name+" scenario to be chosen",
		fmt.Sprintf(`document.getElementById('scenario-says')?.textContent.startsWith(%q)`, description), load)
}

// checkFits: no horizontal document overflow, and chart and table inside
// their cards.
func (p *page) checkFits() {
	p.t.Helper()
	if o := p.overflow(); o > 0 {
		p.t.Errorf("document overflows the %d px viewport by %d px", p.vp.width, o)
	}
	for _, sel := range []string{"svg.chart", "table.services"} {
		if over := eval[float64](p, fmt.Sprintf(`(() => {
			const el = document.querySelector(%q), card = el.closest('.card');
			return el.getBoundingClientRect().right - card.getBoundingClientRect().right;
		})()`, sel)); over > 0.5 {
			p.t.Errorf("%s sticks out of its card by %.1f px", sel, over)
		}
	}
}

// checkTheme: the page shows the theme, fits, and its status and table
// text reach WCAG AA contrast (4.5:1) against what is behind them.
func (p *page) checkTheme(scheme string) {
	p.t.Helper()
	dark := eval[bool](p, `(() => {
		const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
		return r + g + b < 3 * 128;
	})()`)
	if dark != (scheme == "dark") {
		p.t.Errorf("%s theme: the page background is not %s", scheme, scheme)
	}
	p.checkFits()
	ratios := eval[map[string]float64](p, contrastJS)
	for what, ratio := range ratios {
		if ratio < 4.5 {
			p.t.Errorf("%s theme: %s contrast %.2f:1, below 4.5:1", scheme, what, ratio)
		}
	}
	if len(ratios) < 4 {
		p.t.Errorf("contrast measured for %v only", ratios)
	}
}

// contrastJS measures the WCAG contrast ratio of some texts against the
// first opaque background behind each.
const contrastJS = `(() => {
	const rgb = s => s.match(/[\d.]+/g).map(Number);
	const lum = ([r, g, b]) => {
		const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	const background = el => {
		for (; el; el = el.parentElement) {
			const c = rgb(getComputedStyle(el).backgroundColor);
			if (c.length < 4 || c[3] > 0) return c;
		}
		return [255, 255, 255];
	};
	const ratio = el => {
		const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
		return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
	};
	return {
		status: ratio(document.querySelector('[role=status]')),
		"table header": ratio(document.querySelector('table.services thead th')),
		"table cell": ratio(document.querySelector('table.services tbody td')),
		"table change": ratio(document.querySelector('table.services td.change')),
		"series label": ratio(document.querySelector('table.services .series')),
	};
})()`
