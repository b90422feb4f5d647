package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// Ids that focus handling reaches for.
const (
	runID      = "run"
	statusID   = "status"
	warningsID = "warnings"
)

// warnings is "1 warning", "2 warnings".
func warnings(n int) string {
	if n == 1 {
		return "1 warning"
	}
	return fmt.Sprintf("%d warnings", n)
}

// controls: scenario, run commands, series filter, status, each a
// component drawn again only when its inputs change. go-app keeps an
// element's first handler when a new one comes from the same code, so
// handlers here capture nothing that changes.
type controls struct {
	app.Compo
	Scenario   string
	Scenarios  catalogue.Catalogue
	Ready      bool // the client is mounted: a click cannot be lost
	Lifecycle  core.Lifecycle
	StreamOpen bool // the run's connection is open
	Accepted   int
	Warned     int // the engine's warnings in this run
	Filter     core.Filter

	send         func(core.Msg)
	showWarnings func() // opens the arrival log at the first warned event
}

func (c *controls) Render() app.UI {
	_, active := core.ActiveRun(c.Lifecycle)
	_, failed := c.Lifecycle.(core.Failed)
	return app.Div().Class("controls").Body(
		&scenarioPick{Chosen: c.Scenario, Scenarios: c.Scenarios, send: c.send},
		&runButtons{Ready: c.Ready, Active: active, Failed: failed, send: c.send},
		&filterButtons{Filter: c.Filter, send: c.send},
		&runState{Lifecycle: c.Lifecycle, StreamOpen: c.StreamOpen, Accepted: c.Accepted, Warned: c.Warned, showWarnings: c.showWarnings},
	)
}

// runButtons are Run, Cancel and Recover.
type runButtons struct {
	app.Compo
	Ready  bool // the client is mounted: a click cannot be lost
	Active bool // a run is open: Cancel
	Failed bool // a run failed: Recover

	send func(core.Msg)
}

func (b *runButtons) Render() app.UI {
	send := b.send
	return app.Div().Class("group").Body(
		// Disabled until the client is ready, so that no click is lost.
		button("Run", "primary", !b.Ready, func(app.Context, app.Event) { send(core.ClickedRun{}) }).ID(runID),
		button("Cancel", "", !b.Active, func(app.Context, app.Event) { send(core.ClickedCancel{}) }),
		button("Recover", "", !b.Failed, func(app.Context, app.Event) { send(core.ClickedRecover{}) }),
		app.If(!b.Ready, func() app.UI { return app.Span().Class("loading").Text("Loading…") }),
	)
}

// filterButtons choose the series shown.
type filterButtons struct {
	app.Compo
	Filter core.Filter

	send func(core.Msg)
}

func (b *filterButtons) Render() app.UI {
	send := b.send
	return app.Div().Class("group", "segmented").Role("group").Aria("label", "Series filter").Body(
		app.Range(core.Filters).Slice(func(i int) app.UI {
			f := core.Filters[i]
			return app.Button().Type("button").
				Aria("pressed", b.Filter == f).
				OnClick(func(app.Context, app.Event) { send(core.ClickedFilter{Filter: f}) }, app.EventScope(string(f))).
				Text(string(f))
		}),
	)
}

// runState is the status word, who ended the run, the accepted count and
// the run's detail: what changes with most events.
type runState struct {
	app.Compo
	Lifecycle  core.Lifecycle
	StreamOpen bool
	Accepted   int
	Warned     int

	showWarnings func()
}

func (r *runState) Render() app.UI {
	show := r.showWarnings
	return app.Div().Class("group", "run-state").Body(
		// Focusable from code: where focus goes when nothing else can take it.
		app.P().Class("status", statusClass(r.Lifecycle)).Body(
			app.Span().ID(statusID).TabIndex(-1).Role("status").Text(r.Lifecycle.String()),
			app.If(who(r.Lifecycle) != "", func() app.UI { return app.Span().Class("who").Text(" · " + who(r.Lifecycle)) }),
			// What the engine warned about is in the arrival log: the count
			// says so here, and its button opens the log at the first one.
			app.If(r.Warned > 0, func() app.UI {
				return app.Span().Class("warned").Body(
					app.Text(" · "),
					app.Button().Type("button").Class("warnings").ID(warningsID).
						OnClick(func(app.Context, app.Event) { show() }).
						Body(app.Span().Class("visually-hidden").Text("Show "), app.Text(warnings(r.Warned))),
				)
			}),
		),
		app.P().Class("accepted").Aria("live", "polite").Text(fmt.Sprintf("Accepted updates: %d", r.Accepted)),
		app.P().Class("run-detail").Aria("live", "polite").Text(runDetail(r.Lifecycle, r.StreamOpen)),
	)
}

// button renders disabled only when true: a prerendered disabled="false"
// would read as disabled until the wasm starts.
func button(label, class string, disabled bool, onClick app.EventHandler) app.HTMLButton {
	b := app.Button().Type("button").Class(class).Text(label).OnClick(onClick)
	return onlyIf(b, disabled, app.HTMLButton.Disabled)
}

// onlyIf sets a boolean attribute only when true.
func onlyIf[E any](e E, on bool, set func(E, bool) E) E {
	if on {
		return set(e, true)
	}
	return e
}

func statusClass(l core.Lifecycle) string {
	if _, ok := core.ActiveRun(l); ok {
		return "active"
	}
	switch l.(type) {
	case core.Completed:
		return "done"
	case core.Failed:
		return "failed"
	case core.Cancelled, core.Interrupted:
		return "cancelled"
	default:
		return "idle"
	}
}

// who says who ended a run, beside the status word.
func who(l core.Lifecycle) string {
	switch l := l.(type) {
	case core.Failed:
		return l.Kind.Who()
	case core.Cancelled:
		switch l.Cause {
		case core.ByUser:
			return "you"
		case core.ByAgent:
			return "the agent"
		}
		return "left the page"
	case core.Interrupted:
		return "the agent asks for input"
	}
	return ""
}

// runDetail says which run the status is about, why it stopped, and
// whether its stream is still open: events after the end can still fail
// it (events/lifecycle).
func runDetail(l core.Lifecycle, streamOpen bool) string {
	detail := runEnd(l)
	if _, active := core.ActiveRun(l); !active && streamOpen {
		detail += " · stream still open"
	}
	return detail
}

func runEnd(l core.Lifecycle) string {
	if run, ok := core.ActiveRun(l); ok {
		return run.RunID + " · " + run.Scenario
	}
	switch l := l.(type) {
	case core.Completed:
		return l.RunID + " · finished"
	case core.Cancelled:
		return l.RunID + " · " + l.Cause.String()
	case core.Interrupted:
		return l.RunID + " · interrupted: the agent waits for your answer"
	case core.Failed:
		return l.RunID + " · " + l.Kind.String()
	default:
		return "no run yet"
	}
}
