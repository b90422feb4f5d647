package page

import "math"

// The timeline draws only the rows in view, and rowMargin more on each
// side: every row is as high as the next, so where a row sits is
// arithmetic, and a 10,000-event run costs the page what 50 rows do.
const (
	rowMargin     = 10
	defaultHeight = 480 // the box's height until the browser has said
)

// Window is the rows of n to draw, [First, Last), with the box scrolled
// to top and height high, rows rowPx high.
func Window(top, height, rowPx float64, n int) (first, last int) {
	if n == 0 {
		return 0, 0
	}
	if height <= 0 {
		height = defaultHeight
	}
	if rowPx <= 0 {
		rowPx = 32
	}
	at := int(max(top, 0) / rowPx)
	first = max(0, at-rowMargin)
	last = min(n, at+int(math.Ceil(height/rowPx))+rowMargin)
	return min(first, max(last-1, 0)), last
}

// Window is the rows of the shown run's timeline to draw.
func (s Shown) Window() (first, last int) {
	return Window(s.Scroll.Top, s.Scroll.Height, s.Scroll.RowPx, len(s.Events))
}
