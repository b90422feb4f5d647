package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

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
