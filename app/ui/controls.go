package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

// controls: scenario, run commands, series filter, status. go-app keeps an
// element's first handler when a new one comes from the same code, so
// handlers here capture nothing that changes: onRun reads the scenario
// when clicked.
func controls(m core.Model, scenario string, onScenario, onRun app.EventHandler, send func(core.Msg)) app.UI {
	_, active := core.ActiveRun(m.Lifecycle)
	_, failed := m.Lifecycle.(core.Failed)
	return app.Div().Class("controls").Body(
		app.Div().Class("group").Body(
			app.Label().For("scenario").Text("Scenario"),
			app.Select().ID("scenario").OnChange(onScenario).Body(
				app.Range(core.Scenarios).Slice(func(i int) app.UI {
					s := core.Scenarios[i]
					return onlyIf(app.Option().Value(s).Text(s), s == scenario, app.HTMLOption.Selected)
				}),
			),
		),
		app.Div().Class("group").Body(
			button("Run", "primary", false, onRun),
			button("Cancel", "", !active, func(app.Context, app.Event) { send(core.ClickedCancel{}) }),
			button("Recover", "", !failed, func(app.Context, app.Event) { send(core.ClickedRecover{}) }),
		),
		app.Div().Class("group", "segmented").Role("group").Aria("label", "Series filter").Body(
			app.Range(core.Filters).Slice(func(i int) app.UI {
				f := core.Filters[i]
				return app.Button().Type("button").
					Aria("pressed", m.Filter == f).
					OnClick(func(app.Context, app.Event) { send(core.ClickedFilter{Filter: f}) }, app.EventScope(string(f))).
					Text(string(f))
			}),
		),
		app.Div().Class("group", "run-state").Body(
			app.P().Class("status", statusClass(m.Lifecycle)).Role("status").Text(m.Lifecycle.Word()),
			app.P().Class("accepted").Text(fmt.Sprintf("Accepted updates: %d", m.Accepted)),
			app.P().Class("run-detail").Text(runDetail(m.Lifecycle)),
		),
	)
}

// button renders disabled only when true: a prerendered disabled="false"
// would read as disabled until the wasm starts.
func button(label, class string, disabled bool, onClick app.EventHandler) app.UI {
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
	case core.Cancelled:
		return "cancelled"
	default:
		return "idle"
	}
}

// runDetail says which run the status is about, and why it stopped.
func runDetail(l core.Lifecycle) string {
	if run, ok := core.ActiveRun(l); ok {
		return run.RunID + " · " + run.Scenario
	}
	switch l := l.(type) {
	case core.Completed:
		return l.RunID + " · finished"
	case core.Cancelled:
		return l.RunID + " · " + l.Cause.String()
	case core.Failed:
		return l.RunID + " · " + l.Kind.String() + " failure"
	default:
		return "no run yet"
	}
}
