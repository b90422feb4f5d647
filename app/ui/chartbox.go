package ui

import (
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// chartBoxID is the element the chart fills; its width is the chart's.
const chartBoxID = "chart-box"

// chartBox reports the width of the box the chart is drawn in, whenever it
// changes, so that the chart is drawn at its real size (see Frame): a
// window resize, a rotated phone, a scroll bar coming or going.
type chartBox struct {
	observer app.Value
	onResize app.Func
}

// watch returns the box's width now, and calls resized with it on each
// change.
func (b *chartBox) watch(resized func(width float64)) float64 {
	el := app.Window().GetElementByID(chartBoxID)
	if !el.Truthy() {
		return 0
	}
	b.onResize = app.FuncOf(func(_ app.Value, args []app.Value) any {
		entries := args[0]
		if entries.Length() > 0 {
			resized(math.Floor(entries.Index(0).Get("contentRect").Get("width").Float()))
		}
		return nil
	})
	b.observer = app.Window().Get("ResizeObserver").New(b.onResize)
	b.observer.Call("observe", el)
	return math.Floor(el.Call("getBoundingClientRect").Get("width").Float())
}

func (b *chartBox) stop() {
	if b.observer == nil {
		return
	}
	b.observer.Call("disconnect")
	b.onResize.Release()
	b.observer = nil
}
