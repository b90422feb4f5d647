package page

import (
	_ "embed"
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// The first run a page shows pays for what the browser does once per page,
// whatever the run's size: V8 compiles each function of the run's view on
// its first call, and Chromium asks its font service how to draw each font
// and size not drawn yet. Measured, that held the first opening for 0.2 to
// 0.5 s in one task. So the page draws a sample run as it starts, out of
// sight, stage by stage as a real run's answers arrive (the views mounted,
// then updated: each path compiles apart), and lays it out: the first real
// run then costs what its rows cost, as every later one does.

//go:embed rehearsal.json
var rehearsalJSON []byte

// rehearsalRun is a run in the API's words: a resume that answers an
// interrupt, with reasoning, a tool call and its result, a state patch, a
// warning and a broken rule, so that every part of the run's view is drawn.
type rehearsalRun struct {
	Detail runs.Detail  `json:"detail"`
	Asked  runs.Detail  `json:"asked"`
	Events []runs.Event `json:"events"`
	At     runs.At      `json:"at"`
}

// rehearsal is the sample run as Update makes it from the runtime's
// answers, one stage per answer, at its state-patch event in the end: the
// page draws each in turn, so the run's views are mounted and then updated,
// as a real run's are while its answers arrive. Its Cmds are dropped: it
// reads nothing.
func rehearsal() []Shown {
	var r rehearsalRun
	if err := json.Unmarshal(rehearsalJSON, &r); err != nil {
		panic("rehearsal.json: " + err.Error()) // embedded: a test reads it
	}
	m := NewModel()
	var stages []Shown
	for _, msg := range []Msg{
		Located{Hash: placeHash(r.Detail.ID, r.At.Index)},
		GotDetail{ID: r.Detail.ID, Detail: r.Detail},
		GotDetail{ID: r.Asked.ID, Detail: r.Asked},
		GotEvents{ID: r.Detail.ID, Events: r.Events},
		GotAt{ID: r.Detail.ID, At: r.At},
	} {
		m, _ = Update(m, msg)
		stages = append(stages, m.Shown)
	}
	return stages
}

// rehearsalView draws the sample run where nobody sees it, reads nothing
// and takes no input.
func rehearsalView(s Shown) app.UI {
	return app.Div().Class("rehearsal").Aria("hidden", "true").Attr("inert", true).Body(
		runView(s, func(Msg) {}),
	)
}

// nextTask calls f in a task of the browser's own, after the one running.
func nextTask(f func()) {
	var fn app.Func
	fn = app.FuncOf(func(app.Value, []app.Value) any {
		fn.Release()
		f()
		return nil
	})
	app.Window().Call("setTimeout", fn, 0)
}
