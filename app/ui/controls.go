package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/fixtures"
)

// Ids that focus handling reaches for.
const (
	runID    = "run"
	statusID = "status"
)

// controls: scenario, run commands, series filter, status. go-app keeps an
// element's first handler when a new one comes from the same code, so
// handlers here capture nothing that changes: onRun reads the scenario
// when clicked.
func controls(m core.Model, ready bool, scenario string, onScenario, onRun, onCancel, onRecover app.EventHandler, send func(core.Msg)) app.UI {
	_, active := core.ActiveRun(m.Lifecycle)
	_, failed := m.Lifecycle.(core.Failed)
	return app.Div().Class("controls").Body(
		app.Div().Class("group", "scenario-pick").Body(
			app.Label().For("scenario").Text("Scenario"),
			app.Select().ID("scenario").Aria("describedby", "scenario-says").OnChange(onScenario).Body(
				scenarioGroup("Scenarios", fixtures.Scenario, scenario),
				scenarioGroup("Faults", fixtures.Fault, scenario),
			),
			scenarioLine(scenario),
		),
		app.Div().Class("group").Body(
			// Disabled until the client is ready, so that no click is lost.
			button("Run", "primary", !ready, onRun).ID(runID),
			button("Cancel", "", !active, onCancel),
			button("Recover", "", !failed, onRecover),
			app.If(!ready, func() app.UI { return app.Span().Class("loading").Text("Loading…") }),
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
			// Focusable from code: where focus goes when nothing else can take it.
			app.P().ID(statusID).TabIndex(-1).Class("status", statusClass(m.Lifecycle)).Role("status").Text(m.Lifecycle.Word()),
			app.P().Class("accepted").Aria("live", "polite").Text(fmt.Sprintf("Accepted updates: %d", m.Accepted)),
			app.P().Class("run-detail").Aria("live", "polite").Text(runDetail(m.Lifecycle)),
		),
	)
}

// scenarioGroup is one optgroup of the Scenario select.
func scenarioGroup(label, group, chosen string) app.UI {
	var options []app.UI
	for _, s := range fixtures.Catalogue() {
		if s.Group == group {
			options = append(options, onlyIf(app.Option().Value(s.Scenario).Text(s.Scenario), s.Scenario == chosen, app.HTMLOption.Selected))
		}
	}
	return app.Elem("optgroup").Attr("label", label).Body(options...)
}

// scenarioLine says what the chosen scenario sends and what a correct
// client does with it.
func scenarioLine(scenario string) app.UI {
	s, _ := fixtures.Lookup(scenario)
	return app.P().ID("scenario-says").Class("scenario-says").Body(
		app.Text(s.Description+" "),
		app.Strong().Text("A correct client: "),
		app.Text(s.Expect),
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
