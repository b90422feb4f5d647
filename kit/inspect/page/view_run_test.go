package page

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// The run's detail can arrive before its events: until the first page of
// them does, the timeline's count says they are being read, not that the
// run has none.
func TestTheCountSaysEventsAreReadUntilTheyArrive(t *testing.T) {
	count := func(m Model) string {
		page := app.HTMLString(runView(m.Shown, func(Msg) {}))
		_, rest, ok := strings.Cut(page, `class="count"`)
		if !ok {
			t.Fatalf("no count in %s", page)
		}
		_, rest, _ = strings.Cut(rest, ">")
		text, _, _ := strings.Cut(rest, "<")
		return text
	}
	m, _ := step(t, NewModel(), Located{Hash: "#run=1"}, GotDetail{ID: "1", Detail: runs.Detail{Run: run("1", runs.OK, 3)}})
	if got, want := count(m), "(0 events, reading more…)"; got != want {
		t.Errorf("detail read, events not yet: count %q, want %q", got, want)
	}
	m, _ = step(t, m, GotEvents{ID: "1", Events: events(0, 3)})
	if got, want := count(m), "(3 events, 1 comment)"; got != want {
		t.Errorf("events read: count %q, want %q", got, want)
	}
}
