package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// focusTarget is what had keyboard focus before a render: a service's row,
// by id, or a control. go-app matches elements by position, not by key, so
// a render can take focus away without the user moving: after a reorder
// the focused <tr> shows another service, a removed row drops focus to the
// page, and so does a button that disables itself.
type focusTarget struct {
	service string    // the focused row's service
	control app.Value // else the focused element, if any
}

// focused reads what has focus now.
func focused() focusTarget {
	el := app.Window().Get("document").Get("activeElement")
	if !el.Truthy() {
		return focusTarget{}
	}
	if id := rowService(el); id != "" {
		return focusTarget{service: id}
	}
	return focusTarget{control: el}
}

// restore runs after the render: focus goes back to the same service's
// row, wherever the list now has it (else the table's tab stop); from a
// control that can no longer be used, it goes to Run (else the status
// line). Where the user has moved on, it does nothing.
func (f focusTarget) restore(table *serviceTable) {
	doc := app.Window().Get("document")
	active := doc.Get("activeElement")
	lost := !active.Truthy() || active.Equal(doc.Get("body"))
	switch {
	case f.service != "":
		onRow := rowService(active)
		if onRow == f.service || (!lost && onRow == "") {
			return
		}
		if table != nil && table.focusService(f.service) {
			return
		}
		focusFirst(doc.Call("querySelector", `tbody tr[tabindex="0"]`), doc.Call("getElementById", statusID))
	case f.control != nil:
		usable := f.control.Get("isConnected").Bool() && !f.control.Get("disabled").Truthy()
		if usable || !(lost || active.Equal(f.control)) {
			return
		}
		run := doc.Call("getElementById", runID)
		if run.Truthy() && run.Get("disabled").Truthy() {
			run = app.Null()
		}
		focusFirst(run, doc.Call("getElementById", statusID))
	}
}

// rowService is the service of a table row, "" for anything else.
func rowService(el app.Value) string {
	if !el.Truthy() || el.Get("tagName").String() != "TR" {
		return ""
	}
	if id := el.Get("dataset").Get("serviceId"); id.Truthy() {
		return id.String()
	}
	return ""
}

// rowOf finds a service's row by comparing ids, never by building a
// selector out of an agent's text.
func rowOf(service string) app.Value {
	rows := app.Window().Get("document").Call("querySelectorAll", "tbody tr[data-service-id]")
	for i := range rows.Length() {
		if row := rows.Index(i); rowService(row) == service {
			return row
		}
	}
	return app.Null()
}

// focusFirst focuses the first element that exists.
func focusFirst(els ...app.Value) {
	for _, el := range els {
		if el.Truthy() {
			el.Call("focus")
			return
		}
	}
}
