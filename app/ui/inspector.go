package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

// inspector shows the selected service against its baseline.
func inspector(m core.Model) app.UI {
	var body app.UI = app.P().Class("hint").Text("Select a service in the table to compare it with the run's baseline.")
	if s, ok := selected(m); ok {
		base, hasBase := m.BaselineOf(s.ID)
		body = app.Dl().Body(
			app.Dt().Text("Service"),
			app.Dd().Body(shapeKey(s.Series), app.Text(s.Name+" · "+string(s.Series))),
			app.Dt().Text("p95 latency"),
			app.Dd().Text(compare(base.Latency, s.Latency, "ms", hasBase)),
			app.Dt().Text("Volume"),
			app.Dd().Text(compare(base.Volume, s.Volume, "rpm", hasBase)),
		)
	}
	return app.Section().Class("card", "inspector").Aria("labelledby", "inspector-title").Body(
		app.H2().ID("inspector-title").Text("Selected service"),
		body,
	)
}

func selected(m core.Model) (core.Service, bool) {
	if m.Selected == "" || m.Wire == nil {
		return core.Service{}, false
	}
	return m.Wire.Find(m.Selected)
}

// compare is "baseline → current unit, difference".
func compare(base, now float64, unit string, hasBase bool) string {
	switch {
	case !hasBase:
		return num(now) + " " + unit + ", new, no baseline"
	case base == now:
		return num(now) + " " + unit + ", unchanged since the baseline"
	default:
		return num(base) + " → " + num(now) + " " + unit + ", " + difference(base, now, unit)
	}
}

// alert explains why the run failed: a rejected update, or another cause.
func alert(m core.Model) app.UI {
	f, failed := m.Lifecycle.(core.Failed)
	if !failed {
		return nil
	}
	if r, ok := m.LastRejection(); ok {
		return app.Div().Class("alert").Role("alert").Body(
			app.H2().Text("Update rejected: no measurements changed"),
			app.P().Body(
				app.Text("The agent's "+string(r.Event)+" failed at "),
				app.Strong().Text(r.Operation()),
				app.Text(": "+r.Reason+"."),
			),
			app.P().Text(fmt.Sprintf("The whole update was refused, so the chart still shows the last valid data. Run %s stopped; Recover starts a fresh run.", r.RunID)),
			ruleLine(f.Rule),
		)
	}
	return app.Div().Class("alert").Role("alert").Body(
		app.H2().Text(fmt.Sprintf("Run failed (%s)", f.Kind)),
		app.P().Text(f.Reason+"."),
		app.P().Text("The chart keeps the last valid data. Recover starts a fresh run."),
		ruleLine(f.Rule),
	)
}

// ruleLine names the lifecycle rule that decided a failure.
func ruleLine(rule int) app.UI {
	return app.P().Class("rule").Text(fmt.Sprintf("Decided by lifecycle rule %d: %s.", rule, core.Rules[rule]))
}

// activity is the bounded log, newest first.
func activity(m core.Model) app.UI {
	n := len(m.Activity)
	return app.Details().Class("card", "activity").Body(
		app.Summary().Text(fmt.Sprintf("Activity (last %d)", core.MaxActivity)),
		app.If(n == 0, func() app.UI { return app.P().Class("hint").Text("Nothing yet.") }),
		app.Ol().Reversed(true).Body(
			app.Range(m.Activity).Slice(func(i int) app.UI {
				e := m.Activity[n-1-i]
				return app.Li().Class(levelClass(e.Level)).Body(
					app.Span().Class("run").Text(e.RunID),
					app.Text(" "+e.Text),
				)
			}),
		),
	)
}

func levelClass(l core.Level) string {
	switch l {
	case core.Warning:
		return "warning"
	case core.Problem:
		return "problem"
	default:
		return "info"
	}
}
