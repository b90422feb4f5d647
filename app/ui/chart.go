package ui

import (
	"fmt"
	"html"
	"reflect"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element. Every SVG element needs the namespace, not only
// <svg>: without it the browser makes an HTML element that draws nothing.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// chunksPerPaint is how many chunks of a crowd one render draws anew,
// before the browser paints and the next render draws more: a
// 10,000-service snapshot is drawn over some twenty paints, none long.
const chunksPerPaint = 8

// chartView is the scatter chart: p95 latency against volume, one mark per
// visible service, baseline marks for the ones that moved, drawn for a box
// of the given width. A few marks are drawn with their names, placed by
// chart.Lay. A crowd is drawn in chunks, one per array of the Wire, each a
// component: a delta to one service draws its chunk again and no other,
// and a change to many chunks at once (a new snapshot, a filter) is drawn
// a few chunks a paint, so that no render takes long.
type chartView struct {
	app.Compo
	Chunks   [][]core.Service // the Wire's arrays
	HasData  bool
	Baseline map[string]core.Service
	Selected string
	Filter   core.Filter
	Width    float64

	ctx          app.Context
	shown        []chunkInput       // what each chunk component draws now
	drawing      bool               // some chunks still show older data
	descriptions []chunkDescription // each chunk's part of the text alternative
}

func (c *chartView) OnMount(ctx app.Context) {
	c.ctx = ctx
	c.drawMore()
}

// drawMore asks for another render a moment later, leaving the browser
// time to paint, while chunks wait to be drawn.
func (c *chartView) drawMore() {
	if c.drawing && c.ctx.Src() != nil {
		c.ctx.After(time.Millisecond, func(app.Context) {})
	}
}

func (c *chartView) Render() app.UI {
	a := chart.NewArea(c.Width)
	visible := visibleRows(c.Chunks, c.Filter)
	var marks, baselines, over app.UI
	var budget chart.Label
	var note *chart.Label
	c.drawing = false
	crowded := visible.Len() > chart.MaxLabels
	if crowded {
		budget = chart.BudgetLabel(a)
		baselines, marks = c.crowd(a)
		// Over the crowd: the selected mark, and the budget line and its
		// label, which the marks would hide.
		over = svg("g").Class("over").Body(c.selectedMark(a), budgetLine(a, budget))
	} else {
		c.shown = nil
		placed := make([]chart.Mark, visible.Len())
		for i := range placed {
			s := visible.At(i)
			base, hasBase := c.Baseline[s.ID]
			placed[i] = chart.Place(s, base, hasBase, s.ID == c.Selected, a)
		}
		l := chart.Lay(a, placed, c.HasData)
		budget, note = l.Budget, l.Note
		baselines = svg("g").Class("baselines").Body(app.Range(placed).Slice(func(i int) app.UI { return newBaselineView(placed[i]) }))
		marks = svg("g").Class("marks").Body(app.Range(placed).Slice(func(i int) app.UI { return newMarkView(placed[i], l.Labels[i]) }))
	}
	return svg("svg").
		Class("chart").
		Attr("viewBox", fmt.Sprintf("0 0 %s %s", fixed(a.Width), fixed(a.Height))).
		DataSet("drawing", c.drawing).
		Role("img").
		Aria("label", c.describeChart(visible)).
		Body(
			&axes{Area: a},
			app.If(!crowded, func() app.UI { return budgetLine(a, budget) }),
			baselines,
			marks,
			over,
			app.If(note != nil, func() app.UI { return svgText(*note, "chart-empty") }),
		)
}

// selectedMark is the selected service's mark in a crowd, if it is shown.
func (c *chartView) selectedMark(a chart.Area) app.UI {
	for _, chunk := range c.Chunks {
		for _, s := range chunk {
			if s.ID == c.Selected && c.Filter.Admits(s) {
				return newMarkView(chart.Place(s, core.Service{}, false, true, a), chart.Label{})
			}
		}
	}
	return nil
}

// chunkInput is what one chunk of a crowd is drawn from.
type chunkInput struct {
	services []core.Service
	baseline map[string]core.Service
	selected string // only when the selected service is in the chunk
	filter   core.Filter
	area     chart.Area
}

// same reports whether two inputs draw the same, without comparing
// services: a Wire's unchanged chunks are the same arrays.
func (in chunkInput) same(o chunkInput) bool {
	return sameArray(in.services, o.services) && sameMap(in.baseline, o.baseline) &&
		in.selected == o.selected && in.filter == o.filter && in.area == o.area
}

func sameArray(a, b []core.Service) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// sameMap: the same map, not merely equal ones (a run's baseline is made
// once).
func sameMap(a, b map[string]core.Service) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// crowd draws the chunks, at most chunksPerPaint of them anew in the
// browser; the others keep showing older data until the next paints.
func (c *chartView) crowd(a chart.Area) (baselines, marks app.UI) {
	want := make([]chunkInput, len(c.Chunks))
	for i, services := range c.Chunks {
		want[i] = chunkInput{services: services, baseline: c.Baseline, filter: c.Filter, area: a}
		for _, s := range services {
			if s.ID == c.Selected {
				want[i].selected = s.ID
			}
		}
	}
	quota := chunksPerPaint // chunks this render may draw anew
	if app.IsServer {
		quota = len(want) // the prerendered page, at once
	}
	shown := make([]chunkInput, len(want))
	copy(shown, c.shown)
	for i := range want {
		if i < len(c.shown) && shown[i].same(want[i]) {
			continue
		}
		if quota == 0 {
			c.drawing = true
			if i >= len(c.shown) {
				shown = shown[:i] // not drawn yet at all
				break
			}
			continue
		}
		shown[i] = want[i]
		quota--
	}
	c.shown = shown
	c.drawMore()
	bs := make([]app.UI, len(shown))
	ms := make([]app.UI, len(shown))
	for i, in := range shown {
		bs[i] = &baselineChunk{Services: in.services, Baseline: in.baseline, Selected: in.selected, Filter: in.filter, Width: in.area.Width}
		ms[i] = &markChunk{Services: in.services, Baseline: in.baseline, Selected: in.selected, Filter: in.filter, Width: in.area.Width}
	}
	return svg("g").Class("baselines").Body(bs...), svg("g").Class("marks").Body(ms...)
}

// crowdRadius is a crowd's marks' size: smaller than a few marks', so that
// where they bunch up, one still shows through another (with the
// stylesheet's transparency).
const crowdRadius = 5

// markChunk draws the marks of one array of the Wire, as one fragment of
// markup: go-app would mount each element with a call into JavaScript per
// element and attribute (some 90 µs a mark, measured in Chromium), where
// the browser parses a chunk's 64 marks at once. A crowd's mark is its
// shape alone, with no title (the table names every service); the
// selected one is drawn over the crowd by the chart. Its fields
// are what go-app compares before drawing the chunk again: the same array,
// or not.
type markChunk struct {
	app.Compo
	Services []core.Service
	Baseline map[string]core.Service
	Selected string
	Filter   core.Filter
	Width    float64 // the area's
}

func (k *markChunk) Render() app.UI {
	a := chart.NewArea(k.Width)
	var b markup
	b.WriteString(`<svg class="chunk" overflow="visible">`)
	for _, s := range k.Services {
		if !k.Filter.Admits(s) {
			continue
		}
		if s.ID == k.Selected {
			continue // drawn over the crowd
		}
		mk := chart.Place(s, core.Service{}, false, false, a)
		b.shape(s.Series, mk.X, mk.Y, crowdRadius, "mark "+seriesClass(s.Series), "data-service-id", s.ID)
	}
	b.WriteString(`</svg>`)
	return app.Raw(b.String())
}

// baselineChunk draws where the services of one array of the Wire were at
// the baseline, for those that moved, as markChunk draws their marks.
type baselineChunk markChunk

func (k *baselineChunk) Render() app.UI {
	a := chart.NewArea(k.Width)
	var b markup
	b.WriteString(`<svg class="chunk" overflow="visible">`)
	for _, s := range k.Services {
		base, hasBase := k.Baseline[s.ID]
		if !hasBase || !k.Filter.Admits(s) {
			continue
		}
		mk := chart.Place(s, base, hasBase, false, a)
		if mk.Baseline == nil {
			continue
		}
		p := mk.Baseline
		b.startTag("g", "baseline "+seriesClass(s.Series), "data-baseline-for", s.ID)
		b.WriteString(`<line class="connector" x1="` + fixed(p.X) + `" y1="` + fixed(p.Y) + `" x2="` + fixed(mk.X) + `" y2="` + fixed(mk.Y) + `"/>`)
		b.shape(s.Series, p.X, p.Y, chart.BaselineRadius, "", "", "")
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return app.Raw(b.String())
}

// markup writes SVG elements as text; every value an agent sent is
// escaped.
type markup struct{ strings.Builder }

// startTag writes a start tag with a class and one more attribute.
func (b *markup) startTag(tag, class, name, value string) {
	b.WriteString("<" + tag + ` class="` + class + `" ` + name + `="` + html.EscapeString(value) + `">`)
}

// shape writes a series' symbol as shape draws it, with a class and one
// more attribute when given.
func (b *markup) shape(series core.Series, x, y, r float64, class, name, value string) {
	if series == core.PlatformSeries {
		b.WriteString("<path")
		b.attrs(class, name, value)
		b.WriteString(` d="` + diamond(x, y, r) + `"/>`)
		return
	}
	b.circle(class, x, y, r, name, value)
}

func (b *markup) circle(class string, x, y, r float64, name, value string) {
	b.WriteString("<circle")
	b.attrs(class, name, value)
	b.WriteString(` cx="` + fixed(x) + `" cy="` + fixed(y) + `" r="` + fixed(r) + `"/>`)
}

func (b *markup) attrs(class, name, value string) {
	if class != "" {
		b.WriteString(` class="` + class + `"`)
	}
	if name != "" {
		b.WriteString(" " + name + `="` + html.EscapeString(value) + `"`)
	}
}

// diamond is a Platform symbol's path.
func diamond(x, y, r float64) string {
	return "M" + fixed(x) + " " + fixed(y-r*1.25) + "L" + fixed(x+r*1.25) + " " + fixed(y) +
		"L" + fixed(x) + " " + fixed(y+r*1.25) + "L" + fixed(x-r*1.25) + " " + fixed(y) + "Z"
}

// markView is one mark of a chart with few, with its title and its name
// where one is written: only the marks that changed are drawn again.
type markView struct {
	app.Compo
	ID, Name        string
	Series          core.Series
	Volume, Latency float64
	X, Y            float64
	Selected        bool
	OffScale        bool
	// The name beside it: one line, or none.
	Label                string
	LabelX, LabelY, Size float64
	Anchor               string
}

func newMarkView(mk chart.Mark, label chart.Label) *markView {
	s := mk.Service
	v := &markView{ID: s.ID, Name: s.Name, Series: s.Series, Volume: s.Volume, Latency: s.Latency,
		X: mk.X, Y: mk.Y, Selected: mk.Selected, OffScale: mk.OffScale}
	if len(label.Lines) > 0 {
		v.Label, v.LabelX, v.LabelY, v.Size, v.Anchor = label.Lines[0], label.X, label.Y, label.Size, label.Anchor
	}
	return v
}

func (v *markView) Render() app.UI {
	s := core.Service{ID: v.ID, Name: v.Name, Series: v.Series, Volume: v.Volume, Latency: v.Latency}
	var label chart.Label
	if v.Label != "" {
		label = chart.Label{Lines: []string{v.Label}, X: v.LabelX, Y: v.LabelY, Size: v.Size, Anchor: v.Anchor}
	}
	return mark(chart.Mark{Service: s, X: v.X, Y: v.Y, Selected: v.Selected, OffScale: v.OffScale}, label)
}

// baselineView is where a service was at the baseline, joined to where it
// is now.
type baselineView struct {
	app.Compo
	ID     string
	Series core.Series
	X, Y   float64 // now
	BX, BY float64 // at the baseline
}

// baselineView is nil for a mark that has not moved.
func newBaselineView(mk chart.Mark) app.UI {
	if mk.Baseline == nil {
		return nil
	}
	return &baselineView{ID: mk.Service.ID, Series: mk.Service.Series, X: mk.X, Y: mk.Y, BX: mk.Baseline.X, BY: mk.Baseline.Y}
}

func (v *baselineView) Render() app.UI {
	return baselineMark(chart.Mark{Service: core.Service{ID: v.ID, Series: v.Series}, X: v.X, Y: v.Y, Baseline: &chart.Point{X: v.BX, Y: v.BY}})
}

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

func baselineMark(mk chart.Mark) app.UI {
	if mk.Baseline == nil {
		return nil
	}
	b := mk.Baseline
	return svg("g").Class("baseline", seriesClass(mk.Service.Series)).DataSet("baseline-for", mk.Service.ID).Body(
		svg("line").Class("connector").Attr("x1", fixed(b.X)).Attr("y1", fixed(b.Y)).Attr("x2", fixed(mk.X)).Attr("y2", fixed(mk.Y)),
		shape(mk.Service.Series, b.X, b.Y, chart.BaselineRadius),
	)
}

func mark(mk chart.Mark, label chart.Label) app.UI {
	s := mk.Service
	class := []string{"mark", seriesClass(s.Series)}
	if mk.Selected {
		class = append(class, "selected")
	}
	return svg("g").Class(class...).DataSet("service-id", s.ID).Body(
		svg("title").Text(markTitle(mk)),
		app.If(mk.Selected, func() app.UI {
			return svg("circle").Class("ring").Attr("cx", fixed(mk.X)).Attr("cy", fixed(mk.Y)).Attr("r", fixed(chart.RingRadius))
		}),
		shape(s.Series, mk.X, mk.Y, chart.MarkRadius),
		app.If(len(label.Lines) > 0, func() app.UI { return svgText(label, "label") }),
	)
}

func markTitle(mk chart.Mark) string {
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
