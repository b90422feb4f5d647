package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// serviceTable lists the visible services as one ARIA grid: one tab stop
// (the selected row, else the first row in the page), Up, Down, Page Up,
// Page Down, Home and End to move, Enter or Space, or a click, to select.
// A long list is virtualised: its box scrolls, only the rows in view and
// a margin are in the page, and aria-rowcount and aria-rowindex say where
// they are. A row is a component, drawn again only when its service,
// baseline, selection or tab stop changed; the handlers sit on the box,
// not on each row.
type serviceTable struct {
	app.Compo
	Chunks   [][]core.Service // the Wire's arrays
	HasData  bool
	Baseline map[string]core.Service
	Selected string
	Filter   core.Filter

	send    func(core.Msg)
	mounted func(*serviceTable) // tells the demo which instance is in the page
	ctx     app.Context
	box     boxWatch

	visible   rows    // the visible services, as last drawn
	first     int     // the first row in the page
	last      int     // and the one after its last
	scrollTop float64 // the box's, as last read
	viewport  float64 // the box's height
	rem       float64 // CSS pixels, as the browser has it
	toFocus   string  // a service to focus once its row is drawn
	away      string  // the focused service whose row scrolled out of the page
}

func (t *serviceTable) OnMount(ctx app.Context) {
	t.ctx = ctx
	if t.mounted != nil {
		t.mounted(t)
	}
	// The box's height whenever it changes, from the observer, so that no
	// render makes the browser lay the page out; a row's is set in rem.
	t.rem = rootFontPx()
	t.box.watch(tableBoxID, func(_, height float64) {
		ctx.Dispatch(func(ctx app.Context) {
			t.rem = rootFontPx()
			if height == t.viewport {
				ctx.PreventUpdate()
				return
			}
			t.viewport = height
		})
	})
}

func (t *serviceTable) OnDismount() { t.box.stop() }

func (t *serviceTable) Render() app.UI {
	t.visible = visibleRows(t.Chunks, t.Filter, t.visible)
	n := t.visible.Len()
	virtual := n > virtualFrom
	first, last := 0, n
	if virtual {
		first, last = t.window(n)
	}
	t.first, t.last = first, last
	stop := first
	if i := t.visible.Index(t.Selected); i >= first && i < last {
		stop = i
	}
	rowsUI := make([]app.UI, 0, last-first+2)
	if first > 0 {
		rowsUI = append(rowsUI, spacer("above", float64(first)*t.rowPx()))
	}
	for i := first; i < last; i++ {
		s := t.visible.At(i)
		base, hasBase := t.Baseline[s.ID]
		rowsUI = append(rowsUI, &serviceRow{
			ID: s.ID, Name: s.Name, Series: s.Series, Volume: s.Volume, Latency: s.Latency,
			BaseVolume: base.Volume, BaseLatency: base.Latency, HasBase: hasBase,
			Selected: s.ID == t.Selected, TabStop: i == stop, Index: i,
		})
	}
	if last < n {
		rowsUI = append(rowsUI, spacer("below", float64(n-last)*t.rowPx()))
	}
	if n == 0 {
		rowsUI = append(rowsUI, app.Tr().Body(app.Td().ColSpan(4).Class("empty").Text(t.emptyText())))
	}
	box := app.Div().ID(tableBoxID).Class("table-wrap").TabIndex(-1).OnKeyDown(t.onKey).OnClick(t.onClick)
	if virtual {
		box = box.Class("table-wrap", "scroll").OnScroll(t.onScroll)
		if t.ctx.Src() != nil {
			t.ctx.Defer(t.afterRender)
		}
	}
	return box.Body(
		app.Table().Class("services").Role("grid").Aria("label", "Services").Aria("readonly", true).
			Aria("rowcount", n+1).Body(
			app.THead().Body(app.Tr().Aria("rowindex", 1).Body(
				app.Th().Scope("col").Text("Service"),
				app.Th().Scope("col").Class("num").Text("Volume (rpm)"),
				app.Th().Scope("col").Class("num").Text("p95 (ms)"),
				app.Th().Scope("col").Text("Change vs baseline"),
			)),
			app.TBody().Body(rowsUI...),
		),
	)
}

func (t *serviceTable) emptyText() string {
	if !t.HasData {
		return "No data yet."
	}
	return "No " + string(t.Filter) + " services in the data."
}

// serviceRow is one service's row. Its fields are plain values: go-app
// compares them before drawing the row again.
type serviceRow struct {
	app.Compo
	ID, Name                string
	Series                  core.Series
	Volume, Latency         float64
	BaseVolume, BaseLatency float64
	HasBase                 bool
	Selected                bool
	TabStop                 bool
	Index                   int // in the visible list
}

func (r *serviceRow) Render() app.UI {
	s := core.Service{ID: r.ID, Name: r.Name, Series: r.Series, Volume: r.Volume, Latency: r.Latency}
	base := core.Service{ID: r.ID, Name: r.Name, Series: r.Series, Volume: r.BaseVolume, Latency: r.BaseLatency}
	tabIndex := -1
	if r.TabStop {
		tabIndex = 0
	}
	return app.Tr().
		TabIndex(tabIndex).
		DataSet("service-id", s.ID).
		Aria("rowindex", r.Index+2).
		Aria("selected", r.Selected).
		Body(
			app.Th().Scope("row").Body(
				shapeKey(s.Series), app.Span().Class("name").Text(s.Name),
				app.Span().Class("series").Body(
					app.Text(string(s.Series)),
					app.If(r.Selected, func() app.UI {
						// A cue beyond colour, with a separator in its text.
						return app.Span().Class("selected-cue").Body(app.Span().Class("visually-hidden").Text(", "), app.Text("selected"))
					}),
				),
			),
			app.Td().Class("num").Text(num(s.Volume)),
			app.Td().Class("num").Text(num(s.Latency)),
			app.Td().Class(changeClass(s, base, r.HasBase)).Text(change(s, base, r.HasBase)),
		)
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
