package ui

import (
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// The table's scroll box, and when it virtualises.
const (
	tableBoxID      = "services-box"
	virtualFrom     = 60   // a longer list scrolls in its box and only rows near the view are in the page
	rowMargin       = 12   // rows kept in the page above and below the view
	rowRem          = 3.75 // a virtualised row's height, in rem: room for its two lines
	defaultViewport = 480  // the box's height until the browser has said
)

// rootFontPx is the size of a rem in CSS pixels, as the browser has it.
func rootFontPx() float64 {
	size := app.Window().Call("getComputedStyle", app.Window().Get("document").Get("documentElement")).Get("fontSize").String()
	px, err := strconv.ParseFloat(strings.TrimSuffix(size, "px"), 64)
	if err != nil || px <= 0 {
		return 16
	}
	return px
}

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
	t.visible = visibleRows(t.Chunks, t.Filter)
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

// spacer stands for rows not in the page, so that the box scrolls as if
// they were. Its height is the cell's height attribute (a presentational
// hint: the Content-Security-Policy allows no style attribute), so it comes
// in the same change to the page as the rows: set afterwards, a spacer was
// for a moment 0 px high, the box shorter than its scroll position, and the
// browser moved that position (seen under load: End landed on the top).
func spacer(where string, height float64) app.UI {
	return app.Tr().Class("spacer", where).Aria("hidden", true).Body(app.Td().ColSpan(4).Attr("height", fixed(height)))
}

func (t *serviceTable) rowPx() float64 {
	if t.rem > 0 {
		return rowRem * t.rem
	}
	return rowRem * 16
}

// window is the rows in the page: those in view, and a margin on each
// side (at the top of the list, only below it).
func (t *serviceTable) window(n int) (first, last int) {
	height := t.viewport
	if height <= 0 {
		height = defaultViewport
	}
	top := int(t.scrollTop / t.rowPx())
	first = max(0, top-rowMargin)
	last = min(n, top+int(math.Ceil(height/t.rowPx()))+rowMargin)
	return max(0, min(first, last-1)), last
}

// afterRender puts focus back on the service that had it: one waiting for
// its row (a key moved past the page), or one whose row scrolled out of
// the page and back.
func (t *serviceTable) afterRender(ctx app.Context) {
	box := app.Window().GetElementByID(tableBoxID)
	if !box.Truthy() {
		return
	}
	for _, id := range []string{t.toFocus, t.away} {
		if id == "" {
			continue
		}
		if row := rowOf(id); row.Truthy() {
			if id == t.away && !focusIsLost(box) && !onOtherRow(id) {
				t.away = "" // the user moved on meanwhile
				continue
			}
			row.Call("focus")
			t.toFocus, t.away = "", ""
			return
		}
	}
	if t.away != "" && (focusIsLost(box) || onOtherRow(t.away)) {
		box.Call("focus") // keys go on from the service whose row left the page
	}
}

// onOtherRow: focus is on the row of a service other than id. go-app keeps
// row elements by position, so after a scroll draws other rows the focused
// element may show another service: focus goes back to id's row.
func onOtherRow(id string) bool {
	other := rowService(app.Window().Get("document").Get("activeElement"))
	return other != "" && other != id
}

// focusIsLost: nothing has focus, or the box holds it for a row.
func focusIsLost(box app.Value) bool {
	doc := app.Window().Get("document")
	active := doc.Get("activeElement")
	return !active.Truthy() || active.Equal(doc.Get("body")) || active.Equal(box)
}

func (t *serviceTable) onScroll(ctx app.Context, e app.Event) {
	box := e.Get("currentTarget")
	t.scrollTop, t.viewport = box.Get("scrollTop").Float(), box.Get("clientHeight").Float()
	if first, last := t.window(t.visible.Len()); first == t.first && last == t.last {
		ctx.PreventUpdate() // the same rows: nothing to draw
		return
	}
	if id := rowService(app.Window().Get("document").Get("activeElement")); id != "" {
		t.away = id // the render may take focus from its row: afterRender gives it back
	}
}

func (t *serviceTable) onClick(ctx app.Context, e app.Event) {
	t.away = "" // the user chose where focus is
	if id := rowService(e.Get("target").Call("closest", "tr")); id != "" {
		t.send(core.ClickedService{ID: id}) // the demo draws what it changed
		return
	}
	ctx.PreventUpdate()
}

// onKey moves between rows and selects, from the focused row, or from the
// service whose row left the page while it had focus.
func (t *serviceTable) onKey(ctx app.Context, e app.Event) {
	id := rowService(e.Get("target").Call("closest", "tr"))
	if id == "" {
		id = t.away
	}
	t.away = "" // from here on, the key decides where focus goes
	at := t.visible.Index(id)
	if at < 0 {
		ctx.PreventUpdate()
		return
	}
	page := max(1, int(t.viewport/t.rowPx())-1)
	target := at
	switch e.Get("key").String() {
	case "Enter", " ":
		e.PreventDefault()                  // Space would scroll the page
		t.send(core.ClickedService{ID: id}) // the demo draws what it changed
		return
	case "ArrowDown":
		target = at + 1
	case "ArrowUp":
		target = at - 1
	case "PageDown":
		target = at + page
	case "PageUp":
		target = at - page
	case "Home":
		target = 0
	case "End":
		target = t.visible.Len() - 1
	default:
		ctx.PreventUpdate()
		return
	}
	ctx.PreventUpdate() // moving focus changes no input of any component
	e.PreventDefault()
	t.focusRow(min(max(target, 0), t.visible.Len()-1))
}

// focusRow moves focus to the row at index i, scrolling it into the page
// first when it is not there.
func (t *serviceTable) focusRow(i int) {
	id := t.visible.At(i).ID
	if row := rowOf(id); row.Truthy() {
		row.Call("focus")
		// Focus scrolled the box at once; its scroll event comes later. A
		// render due meanwhile must draw from where the box is now, or it
		// shifts the rows under the row just focused.
		t.scrollTop = app.Window().GetElementByID(tableBoxID).Get("scrollTop").Float()
		return
	}
	t.reveal(i)
}

// reveal scrolls the box so that row i is in the middle of the view, and
// focuses it once drawn.
func (t *serviceTable) reveal(i int) {
	box := app.Window().GetElementByID(tableBoxID)
	t.toFocus = t.visible.At(i).ID
	t.scrollTop = max(0, float64(i)*t.rowPx()-t.viewport/2)
	if box.Truthy() {
		box.Set("scrollTop", t.scrollTop)
		t.scrollTop = box.Get("scrollTop").Float() // as far as the box goes
	}
	t.ctx.Dispatch(nil)
}

// focusService puts focus on a service's row, wherever it is in the list;
// false when the list does not have it.
func (t *serviceTable) focusService(id string) bool {
	i := t.visible.Index(id)
	if i < 0 {
		return false
	}
	t.focusRow(i)
	return true
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

// rows is the visible services: every service of the Wire's arrays, or
// those of one series, in order, without copying them.
type rows struct {
	chunks [][]core.Service
	at     []int32 // positions of the visible services; nil when all are
	n      int
}

func visibleRows(chunks [][]core.Service, f core.Filter) rows {
	v := rows{chunks: chunks}
	pos := 0
	for _, chunk := range chunks {
		for _, s := range chunk {
			if f == core.All {
				v.n++
			} else if f.Admits(s) {
				v.at = append(v.at, int32(pos))
			}
			pos++
		}
	}
	if f != core.All {
		v.n = len(v.at)
	}
	return v
}

func (v rows) Len() int { return v.n }

func (v rows) At(i int) core.Service {
	p := i
	if v.at != nil {
		p = int(v.at[i])
	}
	return v.chunks[p/core.ChunkSize][p%core.ChunkSize]
}

// Index is the position of a service in the list, -1 if it is not there.
func (v rows) Index(id string) int {
	if id == "" {
		return -1
	}
	for i := range v.n {
		if v.At(i).ID == id {
			return i
		}
	}
	return -1
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
