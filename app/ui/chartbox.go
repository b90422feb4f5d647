package ui

import (
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// chartBoxID is the element the chart fills; its width is the chart's.
const chartBoxID = "chart-box"

// boxWatch reports the size of an element whenever it changes, without
// asking the browser to lay the page out: so that the chart is drawn at
// its real width (see chart.Area) and the table knows how many rows its
// box shows, through a window resize, a rotated phone, a scroll bar coming
// or going.
type boxWatch struct {
	observer app.Value
	onResize app.Func
}

// watch returns the element's width now (measured once, at mount), and
// calls resized with its content box on each change after.
func (b *boxWatch) watch(id string, resized func(width, height float64)) float64 {
	el := app.Window().GetElementByID(id)
	if !el.Truthy() {
		return 0
	}
	b.onResize = app.FuncOf(func(_ app.Value, args []app.Value) any {
		entries := args[0]
		if entries.Length() > 0 {
			rect := entries.Index(0).Get("contentRect")
			resized(math.Floor(rect.Get("width").Float()), rect.Get("height").Float())
		}
		return nil
	})
	b.observer = app.Window().Get("ResizeObserver").New(b.onResize)
	b.observer.Call("observe", el)
	return math.Floor(el.Call("getBoundingClientRect").Get("width").Float())
}

func (b *boxWatch) stop() {
	if b.observer == nil {
		return
	}
	b.observer.Call("disconnect")
	b.onResize.Release()
	b.observer = nil
}
