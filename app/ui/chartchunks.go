package ui

import (
	"reflect"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// chunksPerPaint is how many chunks of a crowd one render draws anew,
// before the browser paints and the next render draws more: a
// 10,000-service snapshot is drawn over some twenty paints, none long.
const chunksPerPaint = 8

// drawMore asks for another render a moment later, leaving the browser
// time to paint, while chunks wait to be drawn.
func (c *chartView) drawMore() {
	if c.drawing && c.ctx.Src() != nil {
		c.ctx.After(time.Millisecond, func(app.Context) {})
	}
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
