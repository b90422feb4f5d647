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
// browser; the others keep showing older data until the next paints. The
// selected service is in the chunk at selected (-1: in none).
func (c *chartView) crowd(a chart.Area, selected int) (baselines, marks app.UI) {
	want := make([]chunkInput, len(c.Chunks))
	for i, services := range c.Chunks {
		want[i] = chunkInput{services: services, baseline: c.Baseline, filter: c.Filter, area: a}
		if i == selected {
			want[i].selected = c.Selected
		}
	}
	quota := chunksPerPaint // chunks this render may draw anew
	if app.IsServer {
		quota = len(want) // the prerendered page, at once
	}
	shown := make([]*chunkInput, len(want))
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
		shown[i] = &want[i]
		quota--
	}
	c.shown = shown
	c.drawMore()
	bs := make([]app.UI, len(shown))
	ms := make([]app.UI, len(shown))
	for i, in := range shown {
		bs[i] = &baselineChunk{In: in}
		ms[i] = &markChunk{In: in}
	}
	return svg("g").Class("baselines").Body(bs...), svg("g").Class("marks").Body(ms...)
}

// crowdRadius is a crowd's marks' size: smaller than a few marks', so that
// where they bunch up, one still shows through another (with the
// stylesheet's transparency).
const crowdRadius = 5

// groupSize is how many services one fragment of a chunk's markup draws.
// A chunk is eight fragments, each kept while its services are the same: a
// delta to one service writes and parses the eight marks of its group
// again, not the 64 of its chunk, and the browser styles, lays out and
// paints eight new elements.
const groupSize = 8

// markChunk draws the marks of one array of the Wire, as fragments of
// markup: go-app would mount each element with a call into JavaScript per
// element and attribute (some 90 µs a mark, measured in Chromium), where
// the browser parses a fragment's marks at once. A crowd's mark is its
// shape alone, with no title (the table names every service); the
// selected one is drawn over the crowd by the chart. In is what go-app
// compares before drawing the chunk again: the chart hands a chunk it
// need not draw again the same pointer, which go-app's comparison (of
// every exported field, by reflection, for each chunk of the crowd at
// every render) takes at a glance.
type markChunk struct {
	app.Compo
	In *chunkInput

	groups []group // the fragments as last drawn
}

func (k *markChunk) Render() app.UI { return drawGroups(&k.groups, *k.In, marks) }

// marks is the markup of some services' marks.
func marks(services []core.Service, in chunkInput) string {
	a := chart.NewArea(in.area.Width)
	var b markup
	for _, s := range services {
		if !in.filter.Admits(s) || s.ID == in.selected {
			continue // the selected one is drawn over the crowd
		}
		mk := chart.Place(s, core.Service{}, false, false, a)
		b.shape(s.Series, mk.X, mk.Y, crowdRadius, "mark "+seriesClass(s.Series), "data-service-id", s.ID)
	}
	return b.fragment()
}

// baselineChunk draws where the services of one array of the Wire were at
// the baseline, for those that moved, as markChunk draws their marks.
type baselineChunk markChunk

func (k *baselineChunk) Render() app.UI { return drawGroups(&k.groups, *k.In, baselines) }

// baselines is the markup of where some services were at the baseline,
// for those that moved; "" when none did.
func baselines(services []core.Service, in chunkInput) string {
	a := chart.NewArea(in.area.Width)
	var b markup
	for _, s := range services {
		base, hasBase := in.baseline[s.ID]
		if !hasBase || !in.filter.Admits(s) {
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
	return b.fragment()
}

// group is one fragment of a chunk: the services it drew, what else it
// was drawn from, and its markup.
type group struct {
	services [groupSize]core.Service
	in       chunkInput // its services aside
	markup   string
}

// drew reports whether the group drew these services from this input.
// Services are compared by value: a delta copies its chunk, and all but
// one of the copy's services are the same.
func (g group) drew(services []core.Service, in chunkInput) bool {
	return padded(services) == g.services && sameMap(g.in.baseline, in.baseline) &&
		g.in.selected == in.selected && g.in.filter == in.filter && g.in.area == in.area
}

// padded is up to groupSize services, as an array.
func padded(services []core.Service) (out [groupSize]core.Service) {
	copy(out[:], services)
	return out
}

// drawGroups draws a chunk as its groups' fragments, writing again only
// those whose services or input changed. A group that draws nothing is an
// empty text, so that every group keeps its place: go-app matches
// children by position.
//
// The chunk is an SVG of its own in a foreignObject the size of the
// chart, at the chart's coordinates: Chromium paints such a chunk as a
// layer of its own, and a delta repaints the chunk it changed while the
// others' drawing is reused. Drawn straight into the chart, every mark
// was painted again at every delta (measured at 10,000 services: 33 ms of
// main thread a delta, 21 ms in foreignObjects).
func drawGroups(groups *[]group, in chunkInput, draw func([]core.Service, chunkInput) string) app.UI {
	n := (len(in.services) + groupSize - 1) / groupSize
	drawn := make([]group, n)
	body := make([]app.UI, n)
	for i := range drawn {
		services := in.services[i*groupSize : min((i+1)*groupSize, len(in.services))]
		if i < len(*groups) && (*groups)[i].drew(services, in) {
			drawn[i] = (*groups)[i]
		} else {
			in := in
			in.services = nil // the group keeps its own copy
			drawn[i] = group{services: padded(services), in: in, markup: draw(services, in)}
		}
		body[i] = app.Text("")
		if drawn[i].markup != "" {
			body[i] = app.Raw(drawn[i].markup)
		}
	}
	*groups = drawn
	w, h := fixed(in.area.Width), fixed(in.area.Height)
	return svg("foreignObject").Attr("x", "0").Attr("y", "0").Attr("width", w).Attr("height", h).Body(
		svg("svg").Class("chunk").Attr("width", w).Attr("height", h).Attr("viewBox", "0 0 "+w+" "+h).Attr("overflow", "visible").Body(body...),
	)
}
