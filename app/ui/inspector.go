package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

// inspector shows the selected service against its baseline.
type inspector struct {
	app.Compo
	Service  core.Service
	Selected bool // a service is selected and shown
	Base     core.Service
	HasBase  bool
}

func (in *inspector) Render() app.UI {
	var body app.UI = app.P().Class("hint").Text("Select a service in the table to compare it with the run's baseline.")
	if s := in.Service; in.Selected {
		body = app.Dl().Body(
			app.Dt().Text("Service"),
			app.Dd().Body(shapeKey(s.Series), app.Text(s.Name+" · "+string(s.Series))),
			app.Dt().Text("p95 latency"),
			app.Dd().Text(compare(in.Base.Latency, s.Latency, "ms", in.HasBase)),
			app.Dt().Text("Volume"),
			app.Dd().Text(compare(in.Base.Volume, s.Volume, "rpm", in.HasBase)),
		)
	}
	return app.Section().Class("card", "inspector").Aria("labelledby", "inspector-title").Body(
		app.H2().ID("inspector-title").Text("Selected service"),
		body,
	)
}

// inspectorOf is the inspector for a model.
func inspectorOf(m core.Model) *inspector {
	if m.Selected == "" || m.Wire == nil {
		return &inspector{}
	}
	s, ok := m.Wire.Find(m.Selected)
	if !ok {
		return &inspector{}
	}
	base, hasBase := m.BaselineOf(s.ID)
	return &inspector{Service: s, Selected: true, Base: base, HasBase: hasBase}
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
