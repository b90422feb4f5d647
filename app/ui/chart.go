package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	core "github.com/agent-analysis/agent-analysis/app/core"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element. Every SVG element needs the namespace, not only
// <svg>: without it the browser makes an HTML element that draws nothing.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// chart is the scatter chart: p95 latency against volume, one mark per
// visible service, baseline marks for the ones that moved, drawn for a box
// of the given width.
func chart(m core.Model, width float64) app.UI {
	l := Lay(m, NewFrame(width))
	f := l.Frame
	return svg("svg").
		Class("chart").
		Attr("viewBox", fmt.Sprintf("0 0 %s %s", fixed(f.Width), fixed(f.Height))).
		Role("img").
		Aria("label", chartLabel(m, l.Marks)).
		Body(
			axes(f),
			budgetLine(f, l.Budget),
			app.Range(l.Marks).Slice(func(i int) app.UI { return baselineMark(l.Marks[i]) }),
			app.Range(l.Marks).Slice(func(i int) app.UI { return mark(l.Marks[i], l.Labels[i]) }),
			app.If(l.Note != nil, func() app.UI { return svgText(*l.Note, "chart-empty") }),
		)
}

func chartLabel(m core.Model, marks []Mark) string {
	if m.Wire == nil {
		return "Scatter chart of p95 latency against request volume; no data yet"
	}
	label := fmt.Sprintf("Scatter chart of p95 latency (ms) against request volume (requests/min): %d services shown, %s",
		len(marks), filterPhrase(m.Filter))
	for _, mk := range marks {
		if change := describeChange(m, mk.Service); change != "" {
			label += ". " + change
		}
	}
	return label
}

// describeChange says how a service moved against the baseline and where
// it stands to the budget: "API p95 60 -> 145 ms, above the 100 ms
// budget". Services that neither moved nor exceed the budget say nothing.
func describeChange(m core.Model, s core.Service) string {
	base, hasBase := m.BaselineOf(s.ID)
	over := s.Latency > BudgetMs
	budget := fmt.Sprintf(", above the %d ms budget", BudgetMs)
	if !over {
		budget = ""
		if hasBase && base.Latency > BudgetMs {
			budget = fmt.Sprintf(", back under the %d ms budget", BudgetMs)
		}
	}
	switch {
	case !hasBase:
		return fmt.Sprintf("%s p95 %s ms, new, no baseline%s", s.Name, num(s.Latency), budget)
	case base.Latency != s.Latency:
		return fmt.Sprintf("%s p95 %s -> %s ms%s", s.Name, num(base.Latency), num(s.Latency), budget)
	case over:
		return fmt.Sprintf("%s p95 %s ms%s", s.Name, num(s.Latency), budget)
	}
	return ""
}

func filterPhrase(f core.Filter) string {
	if f == core.All {
		return "all series"
	}
	return string(f) + " series only"
}

func axes(f Frame) app.UI {
	bottom, left := f.Y.From, f.X.From
	yTicks, xTicks := f.Y.Domain.Ticks(), f.X.Domain.Ticks()
	return svg("g").Class("axes").Body(
		app.Range(yTicks).Slice(func(i int) app.UI {
			v := yTicks[i]
			y := fixed(f.Y.Px(v))
			return svg("g").Body(
				svg("line").Class("grid").Attr("x1", fixed(left)).Attr("x2", fixed(f.X.To)).Attr("y1", y).Attr("y2", y),
				svg("text").Class("tick").Attr("x", fixed(left-8)).Attr("y", y).Attr("font-size", tickSize).
					Attr("text-anchor", "end").Attr("dominant-baseline", "middle").Text(num(v)),
			)
		}),
		app.Range(xTicks).Slice(func(i int) app.UI {
			v := xTicks[i]
			x := fixed(f.X.Px(v))
			return svg("g").Body(
				svg("line").Class("grid").Attr("x1", x).Attr("x2", x).Attr("y1", fixed(f.Y.To)).Attr("y2", fixed(bottom)),
				svg("text").Class("tick").Attr("x", x).Attr("y", fixed(bottom+18)).Attr("font-size", tickSize).
					Attr("text-anchor", "middle").Text(num(v)),
			)
		}),
		svg("line").Class("axis").Attr("x1", fixed(left)).Attr("x2", fixed(f.X.To)).Attr("y1", fixed(bottom)).Attr("y2", fixed(bottom)),
		svg("line").Class("axis").Attr("x1", fixed(left)).Attr("x2", fixed(left)).Attr("y1", fixed(f.Y.To)).Attr("y2", fixed(bottom)),
		svg("text").Class("axis-label").Attr("font-size", axisSize).
			Attr("x", fixed((f.X.From+f.X.To)/2)).Attr("y", fixed(f.Height-6)).Attr("text-anchor", "middle").
			Text("Volume (requests/min)"),
		svg("text").Class("axis-label").Attr("font-size", axisSize).
			Attr("transform", fmt.Sprintf("translate(16 %s) rotate(-90)", fixed((f.Y.From+f.Y.To)/2))).
			Attr("text-anchor", "middle").
			Text("p95 latency (ms)"),
	)
}

func budgetLine(f Frame, label Label) app.UI {
	y := fixed(f.Y.Px(BudgetMs))
	return svg("g").Class("budget").Body(
		svg("line").Attr("x1", fixed(f.X.From)).Attr("x2", fixed(f.X.To)).Attr("y1", y).Attr("y2", y),
		svgText(label, "budget-label"),
	)
}

// svgText draws a placed label, a line per tspan.
func svgText(l Label, class string) app.UI {
	return svg("text").Class(class).
		Attr("x", fixed(l.X)).Attr("y", fixed(l.Y)).Attr("text-anchor", l.Anchor).Attr("font-size", fixed(l.Size)).
		Body(app.Range(l.Lines).Slice(func(i int) app.UI {
			line := svg("tspan").Attr("x", fixed(l.X)).Text(l.Lines[i])
			if i > 0 {
				line = line.Attr("dy", fixed(lineHeight*l.Size))
			}
			return line
		}))
}

// shape draws a service's symbol: Core a circle, Platform a diamond, so the
// series differ by more than colour.
func shape(series core.Series, x, y, r float64) app.HTMLElem {
	if series == core.Platform {
		return svg("path").Attr("d", fmt.Sprintf("M%s %sL%s %sL%s %sL%s %sZ",
			fixed(x), fixed(y-r*1.25), fixed(x+r*1.25), fixed(y), fixed(x), fixed(y+r*1.25), fixed(x-r*1.25), fixed(y)))
	}
	return svg("circle").Attr("cx", fixed(x)).Attr("cy", fixed(y)).Attr("r", fixed(r))
}

func seriesClass(s core.Series) string {
	if s == core.Platform {
		return "platform"
	}
	return "core"
}

func baselineMark(mk Mark) app.UI {
	if mk.Baseline == nil {
		return nil
	}
	b := mk.Baseline
	return svg("g").Class("baseline", seriesClass(mk.Service.Series)).DataSet("baseline-for", mk.Service.ID).Body(
		svg("line").Class("connector").Attr("x1", fixed(b.X)).Attr("y1", fixed(b.Y)).Attr("x2", fixed(mk.X)).Attr("y2", fixed(mk.Y)),
		shape(mk.Service.Series, b.X, b.Y, baselineRadius),
	)
}

func mark(mk Mark, label Label) app.UI {
	s := mk.Service
	class := []string{"mark", seriesClass(s.Series)}
	if mk.Selected {
		class = append(class, "selected")
	}
	return svg("g").Class(class...).DataSet("service-id", s.ID).Body(
		svg("title").Text(markTitle(mk)),
		app.If(mk.Selected, func() app.UI {
			return svg("circle").Class("ring").Attr("cx", fixed(mk.X)).Attr("cy", fixed(mk.Y)).Attr("r", fixed(ringRadius))
		}),
		shape(s.Series, mk.X, mk.Y, markRadius),
		app.If(len(label.Lines) > 0, func() app.UI { return svgText(label, "label") }),
	)
}

func markTitle(mk Mark) string {
	s := mk.Service
	title := fmt.Sprintf("%s (%s): %s requests/min, p95 %s ms", s.Name, s.Series, num(s.Volume), num(s.Latency))
	if mk.OffScale {
		title += " (beyond the chart's fixed scale)"
	}
	if mk.Selected {
		title += ", selected"
	}
	return title
}
