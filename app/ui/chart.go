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
// visible service, baseline marks for the ones that moved.
func chart(m core.Model) app.UI {
	marks := Marks(m)
	return svg("svg").
		Class("chart").
		Attr("viewBox", fmt.Sprintf("0 0 %d %d", chartWidth, chartHeight)).
		Attr("preserveAspectRatio", "xMidYMid meet").
		Role("img").
		Aria("label", chartLabel(m, marks)).
		Body(
			axes(),
			budgetLine(),
			app.Range(marks).Slice(func(i int) app.UI { return baselineMark(marks[i]) }),
			app.Range(marks).Slice(func(i int) app.UI { return mark(marks[i]) }),
			app.If(m.Wire == nil, func() app.UI {
				return svg("text").Class("chart-empty").
					Attr("x", fixed((xScale.From+xScale.To)/2)).Attr("y", fixed(yScale.Px(150))).
					Attr("text-anchor", "middle").
					Text("No data yet: pick a scenario and press Run")
			}),
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

func axes() app.UI {
	bottom, left := yScale.From, xScale.From
	yTicks, xTicks := latencyDomain.Ticks(), volumeDomain.Ticks()
	return svg("g").Class("axes").Body(
		app.Range(yTicks).Slice(func(i int) app.UI {
			v := yTicks[i]
			y := fixed(yScale.Px(v))
			return svg("g").Body(
				svg("line").Class("grid").Attr("x1", fixed(left)).Attr("x2", fixed(xScale.To)).Attr("y1", y).Attr("y2", y),
				svg("text").Class("tick").Attr("x", fixed(left-8)).Attr("y", y).
					Attr("text-anchor", "end").Attr("dominant-baseline", "middle").Text(num(v)),
			)
		}),
		app.Range(xTicks).Slice(func(i int) app.UI {
			v := xTicks[i]
			x := fixed(xScale.Px(v))
			return svg("g").Body(
				svg("line").Class("grid").Attr("x1", x).Attr("x2", x).Attr("y1", fixed(yScale.To)).Attr("y2", fixed(bottom)),
				svg("text").Class("tick").Attr("x", x).Attr("y", fixed(bottom+19)).Attr("text-anchor", "middle").Text(num(v)),
			)
		}),
		svg("line").Class("axis").Attr("x1", fixed(left)).Attr("x2", fixed(xScale.To)).Attr("y1", fixed(bottom)).Attr("y2", fixed(bottom)),
		svg("line").Class("axis").Attr("x1", fixed(left)).Attr("x2", fixed(left)).Attr("y1", fixed(yScale.To)).Attr("y2", fixed(bottom)),
		svg("text").Class("axis-label").
			Attr("x", fixed((xScale.From+xScale.To)/2)).Attr("y", fixed(chartHeight-6)).Attr("text-anchor", "middle").
			Text("Volume (requests/min)"),
		svg("text").Class("axis-label").
			Attr("transform", fmt.Sprintf("translate(18 %s) rotate(-90)", fixed((yScale.From+yScale.To)/2))).
			Attr("text-anchor", "middle").
			Text("p95 latency (ms)"),
	)
}

func budgetLine() app.UI {
	y := fixed(yScale.Px(BudgetMs))
	return svg("g").Class("budget").Body(
		svg("line").Attr("x1", fixed(xScale.From)).Attr("x2", fixed(xScale.To)).Attr("y1", y).Attr("y2", y),
		svg("text").Attr("x", fixed(xScale.To-4)).Attr("y", fixed(yScale.Px(BudgetMs)-6)).Attr("text-anchor", "end").
			Text(fmt.Sprintf("%d ms budget, not an SLO", BudgetMs)),
	)
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
		shape(mk.Service.Series, b.X, b.Y, 6),
	)
}

func mark(mk Mark) app.UI {
	s := mk.Service
	class := []string{"mark", seriesClass(s.Series)}
	if mk.Selected {
		class = append(class, "selected")
	}
	return svg("g").Class(class...).DataSet("service-id", s.ID).Body(
		svg("title").Text(markTitle(mk)),
		app.If(mk.Selected, func() app.UI {
			return svg("circle").Class("ring").Attr("cx", fixed(mk.X)).Attr("cy", fixed(mk.Y)).Attr("r", "14")
		}),
		shape(s.Series, mk.X, mk.Y, 7),
		svg("text").Class("label").Attr("x", fixed(mk.X+18)).Attr("y", fixed(mk.Y)).Attr("dominant-baseline", "middle").Text(s.Name),
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
