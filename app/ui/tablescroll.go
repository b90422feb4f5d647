package ui

import (
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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
