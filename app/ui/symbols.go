package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element. Every SVG element needs the namespace, not only
// <svg>: without it the browser makes an HTML element that draws nothing.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// diamond is a Platform symbol's path.
func diamond(x, y, r float64) string {
	return "M" + fixed(x) + " " + fixed(y-r*1.25) + "L" + fixed(x+r*1.25) + " " + fixed(y) +
		"L" + fixed(x) + " " + fixed(y+r*1.25) + "L" + fixed(x-r*1.25) + " " + fixed(y) + "Z"
}

// shape draws a service's symbol: Core a circle, Platform a diamond, so the
// series differ by more than colour.
func shape(series core.Series, x, y, r float64) app.HTMLElem {
	if series == core.PlatformSeries {
		return svg("path").Attr("d", diamond(x, y, r))
	}
	return svg("circle").Attr("cx", fixed(x)).Attr("cy", fixed(y)).Attr("r", fixed(r))
}

func seriesClass(s core.Series) string {
	if s == core.PlatformSeries {
		return "platform"
	}
	return "core"
}

// shapeKey repeats the chart's symbol in the table, so rows and marks
// read alike.
func shapeKey(series core.Series) app.UI {
	return svg("svg").Class("key", seriesClass(series)).Attr("viewBox", "0 0 16 16").Aria("hidden", true).Body(
		shape(series, 8, 8, 5),
	)
}
