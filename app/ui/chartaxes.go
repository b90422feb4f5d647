package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/chart"
)

// axes draws the grid, ticks and axis names: again only for a new area.
type axes struct {
	app.Compo
	Area chart.Area
}

func (x *axes) Render() app.UI {
	a := x.Area
	bottom, left := a.Y.From, a.X.From
	yTicks, xTicks := a.Y.Domain.Ticks(), a.X.Domain.Ticks()
	return svg("g").Class("axes").Body(
		app.Range(yTicks).Slice(func(i int) app.UI {
			v := yTicks[i]
			y := fixed(a.Y.Px(v))
			return svg("g").Body(
				svg("line").Class("grid").Attr("x1", fixed(left)).Attr("x2", fixed(a.X.To)).Attr("y1", y).Attr("y2", y),
				svg("text").Class("tick").Attr("x", fixed(left-8)).Attr("y", y).Attr("font-size", chart.TickSize).
					Attr("text-anchor", "end").Attr("dominant-baseline", "middle").Text(num(v)),
			)
		}),
		app.Range(xTicks).Slice(func(i int) app.UI {
			v := xTicks[i]
			x := fixed(a.X.Px(v))
			return svg("g").Body(
				svg("line").Class("grid").Attr("x1", x).Attr("x2", x).Attr("y1", fixed(a.Y.To)).Attr("y2", fixed(bottom)),
				svg("text").Class("tick").Attr("x", x).Attr("y", fixed(bottom+18)).Attr("font-size", chart.TickSize).
					Attr("text-anchor", "middle").Text(num(v)),
			)
		}),
		svg("line").Class("axis").Attr("x1", fixed(left)).Attr("x2", fixed(a.X.To)).Attr("y1", fixed(bottom)).Attr("y2", fixed(bottom)),
		svg("line").Class("axis").Attr("x1", fixed(left)).Attr("x2", fixed(left)).Attr("y1", fixed(a.Y.To)).Attr("y2", fixed(bottom)),
		svg("text").Class("axis-label").Attr("font-size", chart.AxisSize).
			Attr("x", fixed((a.X.From+a.X.To)/2)).Attr("y", fixed(a.Height-6)).Attr("text-anchor", "middle").
			Text("Volume (requests/min)"),
		svg("text").Class("axis-label").Attr("font-size", chart.AxisSize).
			Attr("transform", fmt.Sprintf("translate(16 %s) rotate(-90)", fixed((a.Y.From+a.Y.To)/2))).
			Attr("text-anchor", "middle").
			Text("p95 latency (ms)"),
	)
}

func budgetLine(a chart.Area, label chart.Label) app.UI {
	y := fixed(a.Y.Px(chart.BudgetMs))
	return svg("g").Class("budget").Body(
		svg("line").Attr("x1", fixed(a.X.From)).Attr("x2", fixed(a.X.To)).Attr("y1", y).Attr("y2", y),
		svgText(label, "budget-label"),
	)
}

// svgText draws a placed label, a line per tspan.
func svgText(l chart.Label, class string) app.UI {
	return svg("text").Class(class).
		Attr("x", fixed(l.X)).Attr("y", fixed(l.Y)).Attr("text-anchor", l.Anchor).Attr("font-size", fixed(l.Size)).
		Body(app.Range(l.Lines).Slice(func(i int) app.UI {
			line := svg("tspan").Attr("x", fixed(l.X)).Text(l.Lines[i])
			if i > 0 {
				line = line.Attr("dy", fixed(chart.LineHeight*l.Size))
			}
			return line
		}))
}
