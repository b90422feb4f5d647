package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

// table lists the visible services as one ARIA grid: one tab stop (the
// selected row, else the first), Up, Down, Home and End to move, Enter or
// Space, or a click, to select.
func table(m core.Model, send func(core.Msg)) app.UI {
	visible := m.Visible()
	return app.Div().Class("table-wrap").Body(
		app.Table().Class("services").Role("grid").Aria("label", "Services").Aria("readonly", true).Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("Service"),
				app.Th().Scope("col").Class("num").Text("Volume (rpm)"),
				app.Th().Scope("col").Class("num").Text("p95 (ms)"),
				app.Th().Scope("col").Text("Change vs baseline"),
			)),
			app.TBody().Body(
				app.If(len(visible) == 0, func() app.UI {
					return app.Tr().Body(app.Td().ColSpan(4).Class("empty").Text(emptyTable(m)))
				}),
				app.Range(visible).Slice(func(i int) app.UI { return row(m, visible[i], tabStop(m, visible) == i, send) }),
			),
		),
	)
}

func emptyTable(m core.Model) string {
	if m.Wire == nil {
		return "No data yet."
	}
	return "No " + string(m.Filter) + " services in the data."
}

// tabStop is the one row Tab reaches: the selected one, else the first.
func tabStop(m core.Model, visible []core.Service) int {
	for i, s := range visible {
		if s.ID == m.Selected {
			return i
		}
	}
	return 0
}

func row(m core.Model, s core.Service, tabStop bool, send func(core.Msg)) app.UI {
	selected := s.ID == m.Selected
	base, hasBase := m.BaselineOf(s.ID)
	id := s.ID
	tabIndex := -1
	if tabStop {
		tabIndex = 0
	}
	return app.Tr().
		TabIndex(tabIndex).
		DataSet("service-id", s.ID).
		Aria("selected", selected).
		OnClick(func(ctx app.Context, e app.Event) { send(core.ClickedService{ID: id}) }, app.EventScope(id)).
		OnKeyDown(func(ctx app.Context, e app.Event) { rowKey(e, id, send) }, app.EventScope(id)).
		Body(
			app.Th().Scope("row").Body(
				shapeKey(s.Series), app.Text(s.Name),
				app.Span().Class("series").Body(
					app.Text(string(s.Series)),
					app.If(selected, func() app.UI {
						// A cue beyond colour, with a separator in its text.
						return app.Span().Class("selected-cue").Body(app.Span().Class("visually-hidden").Text(", "), app.Text("selected"))
					}),
				),
			),
			app.Td().Class("num").Text(num(s.Volume)),
			app.Td().Class("num").Text(num(s.Latency)),
			app.Td().Class(changeClass(s, base, hasBase)).Text(change(s, base, hasBase)),
		)
}

func rowKey(e app.Event, id string, send func(core.Msg)) {
	switch e.Get("key").String() {
	case "Enter", " ":
		e.PreventDefault() // Space would scroll the page
		send(core.ClickedService{ID: id})
	case "ArrowDown":
		e.PreventDefault()
		focusFirst(e.Get("currentTarget").Get("nextElementSibling"))
	case "ArrowUp":
		e.PreventDefault()
		focusFirst(e.Get("currentTarget").Get("previousElementSibling"))
	case "Home":
		e.PreventDefault()
		focusFirst(e.Get("currentTarget").Get("parentElement").Get("firstElementChild"))
	case "End":
		e.PreventDefault()
		focusFirst(e.Get("currentTarget").Get("parentElement").Get("lastElementChild"))
	}
}

func changeClass(s, base core.Service, hasBase bool) string {
	switch {
	case !hasBase:
		return "change new"
	case s.Latency > base.Latency:
		return "change worse"
	case s.Latency < base.Latency:
		return "change better"
	default:
		return "change"
	}
}

// shapeKey repeats the chart's symbol in the table, so rows and marks
// read alike.
func shapeKey(series core.Series) app.UI {
	return svg("svg").Class("key", seriesClass(series)).Attr("viewBox", "0 0 16 16").Aria("hidden", true).Body(
		shape(series, 8, 8, 5),
	)
}
