package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// chartView is the scatter chart: p95 latency against volume, one mark per
// visible service, baseline marks for the ones that moved, drawn for a box
// of the given width. A few marks are drawn with their names, placed by
// chart.Lay. A crowd is drawn in chunks, one per array of the Wire, each a
// component: a delta to one service draws its chunk again and no other,
// and within it writes only the group of groupSize marks it is in; a
// change to many chunks at once (a new snapshot, a filter) is drawn a few
// chunks a paint, so that no render takes long.
type chartView struct {
	app.Compo
	Chunks   [][]core.Service // the Wire's arrays
	HasData  bool
	Baseline map[string]core.Service
	Selected string
	Filter   core.Filter
	Width    float64

	ctx          app.Context
	visible      rows               // the visible services, as last drawn
	shown        []*chunkInput      // what each chunk component draws now
	drawing      bool               // some chunks still show older data
	descriptions []chunkDescription // each chunk's part of the text alternative
}

func (c *chartView) OnMount(ctx app.Context) {
	c.ctx = ctx
	c.drawMore()
}

func (c *chartView) Render() app.UI {
	a := chart.NewArea(c.Width)
	visible := visibleRows(c.Chunks, c.Filter, c.visible)
	c.visible = visible
	var marks, baselines, over app.UI
	var budget chart.Label
	var note *chart.Label
	c.drawing = false
	crowded := visible.Len() > chart.MaxLabels
	if crowded {
		selected, in := locate(c.Chunks, c.Selected)
		budget = chart.BudgetLabel(a)
		baselines, marks = c.crowd(a, in)
		// Over the crowd: the selected mark, and the budget line and its
		// label, which the marks would hide.
		over = svg("g").Class("over").Body(c.selectedMark(a, selected), budgetLine(a, budget))
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
func (c *chartView) selectedMark(a chart.Area, s *core.Service) app.UI {
	if s == nil || !c.Filter.Admits(*s) {
		return nil
	}
	return newMarkView(chart.Place(*s, core.Service{}, false, true, a), chart.Label{})
}

// locate finds the service with this id in the Wire's arrays: the service,
// and the array it is in; nil and -1 when it is not there.
func locate(chunks [][]core.Service, id string) (s *core.Service, chunk int) {
	if id == "" {
		return nil, -1
	}
	for c, services := range chunks {
		for k := range services {
			if services[k].ID == id {
				return &services[k], c
			}
		}
	}
	return nil, -1
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
