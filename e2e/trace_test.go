package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// traceProbe runs before the page's own scripts and records every rendered
// change of the status line, the accepted count, the table's row order and
// where focus is (see focusJS).
// Tests assert on this history instead of racing to see a state that lasts
// a moment: a slow machine renders fewer intermediate frames, never a
// different order.
const traceProbe = `(() => {
	window.__trace = [];
	const focusOf = () => { const e = document.activeElement; return ` + focusJS + `; };
	const record = () => {
		const status = document.querySelector('[role=status]');
		// The status always shows a word: one without is still being built
		// (a loaded machine can show the observer that moment).
		if (!status || status.textContent === '') return;
		const entry = {
			status: status.textContent,
			accepted: document.querySelector('.accepted')?.textContent ?? '',
			rows: [...document.querySelectorAll('tbody tr[data-service-id]')].map(r => r.dataset.serviceId).join(','),
			focus: focusOf(),
		};
		const last = window.__trace[window.__trace.length - 1];
		if (!last || last.status !== entry.status || last.accepted !== entry.accepted || last.rows !== entry.rows || last.focus !== entry.focus)
			window.__trace.push(entry);
	};
	new MutationObserver(record).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
	document.addEventListener('focusin', record);
	document.addEventListener('focusout', () => setTimeout(record));
})()`

// focusJS names the focused element e: "row:api" for a service's row,
// "#id" for an element with an id, else its tag and text ("button:Cancel"),
// "body" when nothing has focus.
const focusJS = `(!e || e === document.body) ? 'body'
	: e.tagName === 'TR' ? 'row:' + e.dataset.serviceId
	: e.id ? '#' + e.id
	: e.tagName.toLowerCase() + ':' + e.textContent.trim()`

// traceEntry is one rendered state.
type traceEntry struct {
	Status   string `json:"status"`
	Accepted string `json:"accepted"`
	Rows     string `json:"rows"`
	Focus    string `json:"focus"`
}

// onNewDocument installs a script that runs before every document's own.
func (p *page) onNewDocument(source string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: source})
		return err
	}))
}

func (p *page) trace() []traceEntry {
	return eval[[]traceEntry](p, `window.__trace`)
}

// statuses is the sequence of status words the page rendered, repeats
// folded.
func (p *page) statuses() []string {
	var out []string
	for _, e := range p.trace() {
		if len(out) == 0 || out[len(out)-1] != e.Status {
			out = append(out, e.Status)
		}
	}
	return out
}

// checkStatuses: the rendered words appear in the given order, each at
// most once, ending with the last one. A busy page may skip any but the
// last (two updates can land in one frame); it may never show another.
func (p *page) checkStatuses(order ...string) {
	p.t.Helper()
	got := p.statuses()
	at := 0
	for _, word := range got {
		i := slices.Index(order[at:], word)
		if i < 0 {
			p.t.Errorf("statuses %v, want a subsequence of %v", got, order)
			return
		}
		at += i + 1
	}
	if len(got) == 0 || got[len(got)-1] != order[len(order)-1] {
		p.t.Errorf("statuses %v end elsewhere than %s", got, order[len(order)-1])
	}
}

// sawRows reports whether the table ever showed exactly these rows, in
// this order, while the status said status.
func (p *page) sawRows(status string, rows ...string) bool {
	want := strings.Join(rows, ",")
	return slices.ContainsFunc(p.trace(), func(e traceEntry) bool { return e.Status == status && e.Rows == want })
}

// acceptedCount reads "Accepted updates: N".
func (p *page) acceptedCount() int {
	var n int
	fmt.Sscanf(p.accepted(), "Accepted updates: %d", &n)
	return n
}

// load is the wait limit for anything that needs the page, the wasm or the
// stream to make progress: long enough for a machine with both cores busy.
const load = 30 * time.Second
